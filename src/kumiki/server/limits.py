"""Size and rate limits: what one connection or one address may send."""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass, field

MAX_MESSAGE = 16 * 1024  # bytes in one WebSocket message
MAX_BODY = 64 * 1024  # bytes in a JSON request body
MAX_RECORD = 1024 * 1024  # bytes in an imported record
SOCKETS_PER_ADDRESS = 200  # WebSockets open at once from one client address (a club behind one NAT shares one)
RATED_ADDRESSES = 10_000  # addresses whose request rate is followed; past it, those back to a full bucket are let go
SWEEP_SECONDS = 1.0  # the table full, it is swept for such buckets at most this often (a sweep reads all 10,000)


def client_key(address: str) -> str:
    """The address a client's limits count against: an IPv6 address's /64 (one home or phone is given a whole /64,
    so counting each address let one client reset its own limits by changing address within it), else itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # no IP address (a test client's "testclient", "?")
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # an IPv4 client seen through an IPv6 socket
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass
class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = field(default=-1.0)
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def full(self, now: float) -> bool:
        """Refilled to its burst by ``now``: forgetting it changes nothing."""
        return self.tokens + (now - self.stamp) * self.rate >= self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class Limits:
    """The server's limits (tests and the load benchmark may set their own)."""

    message_bytes: int = MAX_MESSAGE
    body_bytes: int = MAX_BODY
    record_bytes: int = MAX_RECORD
    ws_rate: float = 10.0  # messages a second per WebSocket
    ws_burst: float = 30.0
    http_rate: float = 2.0  # game creations and imports a second per client address
    http_burst: float = 60.0
    agent_pace: float = 1.5  # seconds a computer teammate waits after any edit where everyone builds at once
    sockets_per_address: int = SOCKETS_PER_ADDRESS
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    sockets: dict[str, int] = field(default_factory=dict)
    # the one bucket every address not in ``buckets`` shares while the table is full of addresses still held back
    overflow: TokenBucket | None = None
    swept: float = -math.inf

    def ws_bucket(self) -> TokenBucket:
        return TokenBucket(self.ws_rate, self.ws_burst)

    def allow_http(self, address: str) -> bool:
        """Take one of ``address``'s game creations and imports (by its ``client_key``); False when it has none left."""
        key = client_key(address)
        if key not in self.buckets and len(self.buckets) >= RATED_ADDRESSES:
            self._forget_idle()
            if len(self.buckets) >= RATED_ADDRESSES:  # every address followed is still held back (or was just now)
                if self.overflow is None:
                    self.overflow = TokenBucket(self.http_rate, self.http_burst)
                return self.overflow.take()
        bucket = self.buckets.setdefault(key, TokenBucket(self.http_rate, self.http_burst))
        return bucket.take()

    def _forget_idle(self) -> None:
        """Let go of the addresses whose bucket is full again (as a new one would be: forgetting them changes
        nothing), at most once every ``SWEEP_SECONDS``. A bucket not full is never let go: the whole table was
        emptied once, then the half least recently seen, so a client cycling through 5,000 addresses (IPv6 /64s: a
        /48 holds 65,536) pushed out and reset the limit of the one it was held back on. New addresses share one
        ``overflow`` bucket meanwhile; to keep the table full a client must keep 10,000 addresses each held back,
        some 20,000 requests a second at the default rate, while every address already followed keeps its own."""
        now = time.monotonic()
        if now - self.swept < SWEEP_SECONDS:
            return
        self.swept = now
        self.buckets = {key: bucket for key, bucket in self.buckets.items() if not bucket.full(now)}

    def open_socket(self, address: str) -> bool:
        """Count one more WebSocket from ``address``; False (nothing counted) when it has as many as it may."""
        address = client_key(address)
        if self.sockets.get(address, 0) >= self.sockets_per_address:
            return False
        self.sockets[address] = self.sockets.get(address, 0) + 1
        return True

    def close_socket(self, address: str) -> None:
        address = client_key(address)
        left = self.sockets.get(address, 0) - 1
        if left > 0:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)
