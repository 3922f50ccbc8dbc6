"""The Ray backend on a local Ray (two CPUs, no dashboard): the same rows as the serial backend."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from tests.arena.test_run import SMALL, close_sprt, comparable

from kumiki import arena

pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra")
pytestmark = pytest.mark.xdist_group("ray")


def test_ray_gives_the_serial_results(tmp_path: Path) -> None:
    serial = arena.run(SMALL, tmp_path / "serial", backend="serial")
    on_ray = arena.run(SMALL, tmp_path / "ray", backend="ray", workers=2)
    assert len(on_ray) == len(serial) > 20 and comparable(on_ray) == comparable(serial)


def test_an_unreachable_cluster_is_one_line(tmp_path: Path) -> None:
    from kumiki.arena.backends import BackendError

    study = arena.Study(name="far", game="kuzushi", agents={"random": "random", "greedy": "greedy"}, games=1)
    for address in ("ray://127.0.0.1:1", "127.0.0.1:1"):  # a head address retried for minutes before the check
        with pytest.raises(BackendError, match=rf"cannot start or reach Ray at {re.escape(address)}: nothing answers"):
            arena.run(study, tmp_path / "far", backend="ray", address=address)


def test_ray_address_in_the_environment_is_checked_as_the_address_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray's own RAY_ADDRESS (no --address): ray.init went there and retried a dead address for minutes."""
    from kumiki.arena.backends import BackendError

    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    study = arena.Study(name="far", game="kuzushi", agents={"random": "random", "greedy": "greedy"}, games=1)
    with pytest.raises(BackendError, match=r"cannot start or reach Ray at 127\.0\.0\.1:1: nothing answers"):
        arena.run(study, tmp_path / "far", backend="ray")


def test_the_reach_check_passes_an_address_that_answers_and_one_without_a_port() -> None:
    from kumiki.arena.backends import _unreachable

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert _unreachable(f"127.0.0.1:{port}") is None
        assert _unreachable(f"ray://127.0.0.1:{port}") is None
    assert _unreachable("auto") is None
    assert _unreachable("::1") is None and _unreachable("fe80::1%eth0") is None  # bare IPv6: Ray's to judge
    assert _unreachable("127.0.0.1:70000") == "70000 is not a port (1 to 65535)"
    assert _unreachable(f"{'a' * 70}.example:6379") is not None  # a label no resolver takes: said, not raised


def test_a_run_on_ray_keeps_the_sigterm_handler_it_found(tmp_path: Path) -> None:
    """ray.init puts its own SIGTERM handler (an exit with status 15) over the caller's: the CLI's clean stop (status
    143, "stopped (SIGTERM)") must stay in force while the games are played."""
    import signal

    def mine(_signum: int, _frame: object) -> None:  # pragma: no cover - never called
        pass

    seen: list[object] = []
    study = arena.Study(name="term", game="kuzushi", agents={"random": "random", "greedy": "greedy"}, games=1)
    before = signal.signal(signal.SIGTERM, mine)
    try:
        arena.run(
            study,
            tmp_path / "term",
            backend="ray",
            workers=1,
            progress=lambda *_: seen.append(signal.getsignal(signal.SIGTERM)),
        )
    finally:
        signal.signal(signal.SIGTERM, before)
    assert len(seen) > 1 and all(handler is mine for handler in seen)


def test_an_sprt_on_ray_starts_ray_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every window of an SPRT's pairs started and stopped a local Ray of its own (seconds each): now once a run."""
    import ray

    real_init = ray.init
    starts: list[int] = []

    def counted(*args: object, **kwargs: object) -> object:
        starts.append(1)
        return real_init(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ray, "init", counted)
    study = close_sprt(12)  # all 6 pairs, in 3 windows of 2
    on_ray = arena.run(study, tmp_path / "ray", backend="ray", workers=1)
    assert len(on_ray) == 12 and starts == [1] and not ray.is_initialized()
    serial = arena.run(study, tmp_path / "serial", backend="serial")
    assert comparable(on_ray) == comparable(serial) and on_ray.sprt() == serial.sprt()


def _worker_dies(job: object, batch: object) -> list[object]:
    """A task whose worker process ends at once, as one killed (SIGKILL, the OOM killer) ends."""
    import os

    os._exit(9)


def test_a_worker_dying_past_the_retries_stops_the_run_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray itself failing under a run (a worker that keeps dying, a raylet killed) ended in "internal error
    (LocalRayletDiedError ...)"; now one line, and the games finished before are kept."""
    import sys

    import ray.cloudpickle

    from kumiki.arena import backends

    study = arena.Study(name="dies", game="kuzushi", agents={"random": "random", "greedy": "greedy"}, games=2)
    monkeypatch.setattr(backends, "play_batch", _worker_dies)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import the tests
    try:
        with pytest.raises(
            backends.BackendError, match=r"^Ray failed \(WorkerCrashedError: .*a re-run plays the rest$"
        ):
            arena.run(study, tmp_path / "dies", backend="ray", workers=1)
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
