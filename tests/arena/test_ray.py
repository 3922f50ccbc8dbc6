"""The Ray backend on a local Ray (two CPUs, no dashboard): the same rows as the serial backend."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.arena.test_run import SMALL, close_sprt, comparable
from tests.helpers import CliRunner, stop

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


def test_address_auto_checks_the_ray_address_it_stands_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ray.init reads RAY_ADDRESS for "auto" too: --address auto with a dead RAY_ADDRESS skipped the reach check and
    Ray retried the dead address for minutes."""
    from kumiki.arena.backends import BackendError

    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    study = arena.Study(name="far", game="kuzushi", agents={"random": "random", "greedy": "greedy"}, games=1)
    with pytest.raises(BackendError, match=r"cannot start or reach Ray at 127\.0\.0\.1:1: nothing answers"):
        arena.run(study, tmp_path / "far", backend="ray", address="auto")


@pytest.mark.parametrize("where", ["env", "option"])
def test_address_local_is_a_ray_of_the_runs_own_with_its_workers(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """RAY_ADDRESS=local (or --address local) was passed on as an address, without --workers' CPUs: the run used
    every core whatever --workers said."""
    import ray

    from kumiki.arena.backends import Ray

    calls: list[dict[str, object]] = []
    monkeypatch.setenv("RAY_ADDRESS", "local") if where == "env" else monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kwargs: calls.append(kwargs))
    Ray(2, "local" if where == "option" else None).start()
    assert calls and calls[0]["address"] == "local" and calls[0]["num_cpus"] == 2


def test_ray_failing_outside_a_get_is_one_line_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only ray.get's errors were said in one line: Ray failing in a put, a submission or a wait (its node gone)
    ended in "internal error"."""
    import ray

    from kumiki.arena.backends import BackendError, Ray, run_ray

    def gone(*_args: object, **_kwargs: object) -> None:
        raise ray.exceptions.RaySystemError("the raylet is gone")

    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": 1.0})
    monkeypatch.setattr(ray, "put", gone)
    with pytest.raises(BackendError, match=r"^Ray failed \(RaySystemError: .*the raylet is gone"):
        list(run_ray(None, [], 1, None, cluster=Ray(1, None)))  # type: ignore[arg-type]


@contextlib.contextmanager
def _server(greeting: bytes | None) -> Iterator[int]:
    """A local TCP server that answers every connection with ``greeting`` (None: with nothing, the connection left
    open); yields its port."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            held.append(connection)
            if greeting is not None:
                connection.sendall(greeting)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()
        for connection in held:
            connection.close()


def test_an_address_where_something_else_answers_is_one_line(tmp_path: Path) -> None:
    """A web server (the dashboard's port, a typo) at the address took the reach check, and Ray then retried it for
    ever, printing its warnings every few seconds: now one line, at once."""
    from kumiki.arena.backends import BackendError, _unreachable

    study = arena.Study(name="far", game="kuzushi", agents={"random": "random", "greedy": "greedy"}, games=1)
    with _server(b"HTTP/1.0 400 Bad request\r\n\r\n") as port:
        for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
            with pytest.raises(BackendError, match=rf"at {re.escape(address)}: something answers .*, but not Ray"):
                arena.run(study, tmp_path / "far", backend="ray", address=address)
    with _server(None) as port:  # accepts, says nothing
        assert "but not Ray" in (_unreachable(f"127.0.0.1:{port}") or "")


def test_a_ray_client_address_without_a_port_is_checked_on_the_client_port() -> None:
    """ray://HOST is the client's port 10001: it went unchecked, and the Ray client waited 30 s and warned."""
    from kumiki.arena.backends import _unreachable

    assert _unreachable("ray://127.0.0.1") == "nothing answers at 127.0.0.1:10001 (Connection refused)"


def test_without_an_address_ray_is_started_for_the_run_even_where_one_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --address, ray.init joined a Ray already running on the machine (ray start), against the docs, and
    then refused --workers ("When connecting to an existing cluster, num_cpus ... must not be provided")."""
    import ray

    from kumiki.arena.backends import Ray

    calls: list[dict[str, object]] = []
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kwargs: calls.append(kwargs))
    Ray(2, None).start()
    assert calls and calls[0]["address"] == "local" and calls[0]["num_cpus"] == 2


def test_the_reach_check_passes_an_address_that_answers_and_one_without_a_port() -> None:
    from kumiki.arena.backends import _unreachable

    with _server(b"\x00\x00\x00\x04\x00\x00\x00\x00\x00") as port:  # a gRPC server's first frame: SETTINGS
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


def _agent_interrupts(job: object, specs: object) -> list[dict[str, object]]:
    raise KeyboardInterrupt  # an agent's choose() raising it, as Ctrl-C reaching a pool worker does


def test_a_keyboard_interrupt_inside_a_task_stops_the_run_as_in_the_other_backends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray cancels a task by raising KeyboardInterrupt in it, so one raised there (by an agent) came back as
    RayTaskError(TaskCancelledError): "internal error ..., please report it", where serial and pool runs stop."""
    import sys

    import ray.cloudpickle

    from kumiki.arena import backends

    study = arena.Study(name="stops", game="kuzushi", agents={"random": "random", "greedy": "greedy"}, games=2)
    monkeypatch.setattr(backends, "play_batch", _agent_interrupts)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import the tests
    try:
        for backend in ("serial", "ray"):
            with pytest.raises(KeyboardInterrupt):
                arena.run(study, tmp_path / backend, backend=backend, workers=1)
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def test_ray_says_a_worker_died_on_stderr_so_quiet_prints_only_the_folder(tmp_path: Path) -> None:
    """The raylet's lines to the driver ("(raylet) A worker died ...", "Task play_batch failed. There are 3 retries
    remaining", several lines each) came on stdout, where ``--quiet`` prints only the results folder for a script."""
    import os
    import subprocess
    import sys

    (tmp_path / "dying_agent.py").write_text(
        "import os\n\nclass Dies:\n    def __init__(self, **options):\n        pass\n\n"
        "    def choose(self, state):\n        os._exit(9)\n"
    )
    study = tmp_path / "dies.toml"
    study.write_text('name = "dies"\ngame = "kuzushi"\ngames = 2\n[agents]\nd = "dying_agent:Dies"\nr = "random"\n')
    source = str(Path(arena.__file__).parents[2])  # the tree under test, not an installed kumiki
    command = [sys.executable, "-m", "kumiki.cli", "arena", "run", str(study), "--out", str(tmp_path / "out")]
    done = subprocess.run(
        [*command, "--backend", "ray", "--workers", "1", "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([source, str(tmp_path)])},
    )
    assert done.returncode == 2, done.stderr[-300:]
    assert done.stdout == ""
    assert "(raylet)" in done.stderr  # said, on stderr (it comes at the first of the five deaths)
    assert done.stderr.rstrip().splitlines()[-1].startswith("Ray failed (WorkerCrashedError")


def test_sigterm_stops_a_ray_run_with_status_143(tmp_path: Path) -> None:
    """Ray turns whatever a signal handler raises in its waits into a plain KeyboardInterrupt: SIGTERM to a run on
    Ray said "stopped;" and exit 130, as for Ctrl-C, instead of "stopped (SIGTERM)" and 143."""
    import os
    import signal
    import subprocess
    import sys
    import time

    study = tmp_path / "long.toml"
    study.write_text(
        'name = "long"\ngame = "kuzushi"\ngames = 200\n[agents]\nm = "mcts:iterations=400"\ng = "greedy"\n'
    )
    out = tmp_path / "out"
    command = [sys.executable, "-m", "kumiki.cli", "arena", "run", str(study), "--out", str(out)]
    source = str(Path(arena.__file__).parents[2])  # the tree under test, not an installed kumiki
    process = subprocess.Popen(
        [*command, "--backend", "ray", "--workers", "1", "--quiet"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": source},
    )
    try:
        games = out / "games.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None and not (games.exists() and games.read_text()):
            time.sleep(0.1)  # until Ray is up and games are played (or the run ended early)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        stop(process)  # a run left behind would keep its Ray going into the next tests
    assert process.returncode == 143, err[-300:]
    assert err.startswith("stopped (SIGTERM)") and "Traceback" not in err, err[-300:]


def test_an_error_off_a_terminal_is_on_a_line_of_its_own(tmp_path: Path, run: CliRunner) -> None:
    """Off a terminal the progress bar's last line is still open when Ray cannot be reached: the one-line error was
    joined onto it ("... 0/2 games  -:--:--cannot start or reach Ray ...")."""
    study = tmp_path / "far.toml"
    study.write_text('name = "far"\ngame = "kuzushi"\ngames = 1\n[agents]\nr = "random"\ng = "greedy"\n')
    code, _, err = run("arena", "run", study, "--out", tmp_path / "out", "--backend", "ray", "--address", "127.0.0.1:1")
    assert code == 2
    assert any(line.startswith("cannot start or reach Ray at 127.0.0.1:1") for line in err.splitlines()), err


def test_a_local_run_starts_its_own_ray_beside_one_that_ray_start_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --address (and RAY_ADDRESS) ray.init joined the cluster a `ray start` on this machine had recorded in
    /tmp/ray/ray_current_cluster: with --workers it failed ("num_cpus and num_gpus must not be provided"), without
    it it played on someone else's cluster, or retried a dead one for minutes. The docs promise a local Ray."""
    import ray._private.utils

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(ray._private.utils, "read_ray_address", lambda *_args, **_kwargs: "127.0.0.1:1")
    study = arena.Study(name="own", game="kuzushi", agents={"random": "random", "greedy": "greedy"}, games=1)
    on_ray = arena.run(study, tmp_path / "ray", backend="ray", workers=1)
    assert len(on_ray) == 2 and not ray.is_initialized()


def test_sigterm_while_ray_starts_is_the_runs_clean_stop(
    tmp_path: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ray.init sets its own SIGTERM handler (sys.exit(15)) as it begins: SIGTERM in the seconds Ray takes to start
    ended `kumiki arena run --backend ray` with status 15 and no word."""
    import signal
    import sys

    import ray

    def starting(*_args: object, **_kwargs: object) -> None:
        signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(signum))  # as ray.init does first
        signal.raise_signal(signal.SIGTERM)

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(ray, "init", starting)
    study = tmp_path / "s.toml"
    study.write_text('name = "s"\ngame = "kuzushi"\ngames = 1\n[agents]\nrandom = "random"\ngreedy = "greedy"\n')
    code, _, err = run(
        "arena", "run", study, "--out", tmp_path / "out", "--backend", "ray", "--workers", "1", "--quiet"
    )
    assert code == 143 and err.startswith("stopped (SIGTERM);"), err
    assert not ray.is_initialized()
