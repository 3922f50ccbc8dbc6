"""The limits' bookkeeping: which address a client's limits count against, and what is forgotten when many are
followed (src/kumiki/server/limits.py)."""

from __future__ import annotations

import pytest

from kumiki.server import limits as limits_module
from kumiki.server.limits import Limits, client_key


def test_an_ipv6_client_is_counted_by_its_64_and_an_ipv4_one_by_its_address() -> None:
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:192.0.2.7") == client_key("192.0.2.7") == "192.0.2.7"  # an IPv4 client seen over IPv6
    assert client_key("testclient") == "testclient"  # no IP address: itself


def test_a_client_changing_address_within_its_64_keeps_its_limits() -> None:
    limits = Limits(http_rate=0.001, http_burst=2, sockets_per_address=2)
    assert limits.allow_http("2001:db8::1") and limits.allow_http("2001:db8::2")
    assert not limits.allow_http("2001:db8::3")  # the same /64: held back
    assert limits.allow_http("2001:db8:0:1::1")  # another /64: another client
    assert limits.open_socket("2001:db8::1") and limits.open_socket("2001:db8::2")
    assert not limits.open_socket("2001:db8::9")
    limits.close_socket("2001:db8::2")
    assert limits.open_socket("2001:db8::9")


def test_many_addresses_do_not_reset_the_limit_of_one_held_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 10,000 addresses the whole table was emptied: a client cycling through addresses reset its own limit.
    Now only buckets full again (as a new one would be) go, then the half least recently seen."""
    monkeypatch.setattr(limits_module, "RATED_ADDRESSES", 100)
    limits = Limits(http_rate=0.001, http_burst=3)
    for _ in range(3):
        assert limits.allow_http("198.51.100.1")
    assert not limits.allow_http("198.51.100.1")  # held back
    for k in range(250):  # addresses that each ask once: their buckets are not full again yet (rate 0.001 a second)
        limits.allow_http(f"10.0.{k // 256}.{k % 256}")
        assert not limits.allow_http("198.51.100.1")  # still held back, every time
        assert len(limits.buckets) <= 100
    fresh = Limits(http_rate=1e9, http_burst=3)  # buckets full again at once: they go first, the busy one stays
    monkeypatch.setattr(limits_module, "RATED_ADDRESSES", 10)
    for _ in range(3):
        fresh.allow_http("198.51.100.1")
    fresh.buckets["198.51.100.1"].rate = 0.001  # (this one refills slowly: it is not full)
    for k in range(20):
        fresh.allow_http(f"10.0.0.{k}")
    assert "198.51.100.1" in fresh.buckets and len(fresh.buckets) <= 10


def test_a_client_cycling_through_addresses_cannot_push_out_the_bucket_it_is_held_back_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the table's size the half least recently seen went: a client held back on one address that then asked
    from 5,000 others (IPv6 /64s: a /48 holds 65,536), not from the held one meanwhile, pushed its bucket out and was
    given a full one again. Now a bucket not full is never let go; new addresses share one overflow bucket while the
    table is full, and every address followed before keeps its own."""
    monkeypatch.setattr(limits_module, "RATED_ADDRESSES", 100)
    limits = Limits(http_rate=0.001, http_burst=3)
    held = "2001:db8:0:1::1"
    for _ in range(3):
        assert limits.allow_http(held)
    assert not limits.allow_http(held)
    assert limits.allow_http("192.0.2.9")  # an honest client, followed before the flood
    for k in range(5_000):  # other /64s, each asking once: their buckets are not full again (rate 0.001 a second)
        limits.allow_http(f"2001:db8:1:{k:x}::1")
        assert len(limits.buckets) <= 100
    assert not limits.allow_http(held)  # still held back
    assert limits.allow_http("192.0.2.9") and limits.allow_http("192.0.2.9")  # still its own bucket: not locked out
    assert not limits.allow_http("198.51.100.7")  # a new address meanwhile shares the overflow, drained by the flood
    for key, bucket in limits.buckets.items():  # the flood's buckets full again (as after 3,000 s): they may go
        if key.startswith("2001:db8:1:"):
            bucket.stamp -= 3_000
    limits.swept -= 3_000
    assert limits.allow_http("198.51.100.7") and "198.51.100.7" in limits.buckets  # followed on its own again
    assert not limits.allow_http(held)
