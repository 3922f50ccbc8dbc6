"""Where a study's games are played: here (serial), in a local process pool, or on a Ray cluster.

Every backend takes the same batches of games and yields their result rows as batches finish, in any order; the
rows themselves do not depend on the backend or the number of workers (seeds come from the schedule). Games are
batched so that the per-task overhead stays small next to a game, yet rows still stream back while the study runs.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from kumiki.arena.play import play_game
from kumiki.arena.schedule import GameSpec
from kumiki.core.options import ascii_digits
from kumiki.core.processes import exit_with, stop_pool

BACKENDS = ("serial", "pool", "ray")
WORKER_DEATHS = 3  # a batch whose worker dies this often (one game at a time by then) stops the study


class BackendError(RuntimeError):
    """A backend that cannot run (Ray missing, a cluster that does not answer, a game that kills its worker)."""


@dataclass(frozen=True)
class Job:
    """What every game of a study shares: sent once per batch to the worker that plays it."""

    game: str
    agents: dict[str, str]
    root_seed: int
    move_limit_s: float | None
    record: bool
    trace: bool = False


def play_batch(job: Job, specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
    """Play a batch of games; the worker-side entry point of every backend."""
    return [play_game(job.game, job.agents, s, job.root_seed, job.move_limit_s, job.record, job.trace) for s in specs]


def batches(specs: Sequence[GameSpec], workers: int, largest: int = 8) -> list[list[GameSpec]]:
    """Cut the games into batches that shrink as the work runs out (guided scheduling): each a quarter of an even
    share of what is left, at most ``largest`` games, so the first batches keep the overhead small and the last
    ones, of a game or two, leave no worker idle while another finishes a long batch."""
    out = []
    start = 0
    while start < len(specs):
        size = max(1, min(largest, (len(specs) - start) // max(1, workers * 4)))
        out.append(list(specs[start : start + size]))
        start += size
    return out


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def run_serial(job: Job, specs: Sequence[GameSpec]) -> Iterator[list[dict[str, Any]]]:
    """Play the games here, one by one: each game's row as soon as it ends."""
    for spec in specs:
        yield play_batch(job, [spec])


def _context() -> multiprocessing.context.BaseContext:
    """Fresh worker processes from a fork server (safe with threads, unlike a plain fork); a plain fork where the
    main module cannot be imported again (a script read from stdin), which the fork server would need."""
    main = getattr(sys.modules.get("__main__"), "__file__", None)
    if main is not None and not os.path.exists(main):
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["kumiki.arena.backends"])
    return context


class Pool:
    """A local process pool kept from one run of games to the next (an SPRT plays window after window): its workers
    start, and import the games, once. A pool a worker's death broke is replaced at its next use."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.context = _context()
        self.executor: ProcessPoolExecutor | None = None

    def get(self) -> ProcessPoolExecutor:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(
                self.workers, self.context, initializer=exit_with, initargs=(os.getpid(),)
            )
        return self.executor

    def discard(self, stop: bool = False) -> None:
        """Let the pool go: waited for, or (``stop``) its queued games cancelled and its workers ended."""
        if self.executor is not None:
            if stop:
                stop_pool(self.executor)
            else:
                self.executor.shutdown(wait=True)
            self.executor = None


def run_pool(
    job: Job, specs: Sequence[GameSpec], workers: int, pool: Pool | None = None
) -> Iterator[list[dict[str, Any]]]:
    """Play the games in a local process pool (``pool``, kept by the caller, or one of their own); a worker that
    dies has its games played again (one by one)."""
    own = pool is None
    kept = Pool(workers) if pool is None else pool
    todo = batches(specs, kept.workers)
    deaths = 0
    try:
        while todo:
            lost: list[list[GameSpec]] = []
            executor = kept.get()
            try:
                running: dict[Future[list[dict[str, Any]]], list[GameSpec]] = {}
                try:
                    for batch in todo:
                        running[executor.submit(play_batch, job, batch)] = batch
                except BrokenProcessPool:
                    lost += todo[len(running) :]
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        batch = running.pop(future)
                        try:
                            rows = future.result()
                        except BrokenProcessPool:
                            lost.append(batch)
                            continue
                        yield rows
            except BaseException:  # stopped (Ctrl-C, SIGTERM, the caller gone): no game may go on playing unseen
                kept.discard(stop=True)
                raise
            if lost:
                kept.discard()  # broken: the next use starts a new one
                deaths += 1
                if deaths > WORKER_DEATHS and all(len(b) == 1 for b in lost):
                    first = min(b[0].index for b in lost)
                    raise BackendError(
                        f"a worker died {deaths} times; the games left start at index {first} (calling arena.run "
                        'from a script? put the call under `if __name__ == "__main__":`, the workers import the '
                        "script)"
                    )
                lost = [[spec] for batch in lost for spec in batch]  # again, one game per task
            todo = lost
    finally:
        if own:
            kept.discard()


REACH_SECONDS = 5.0  # how long to wait for a Ray head to answer before saying it does not
CLIENT_PORT = 10001  # the Ray client's port when a ray:// address names none
# HTTP/2's client preface and an empty SETTINGS frame: a gRPC server (Ray's GCS, the Ray client server) answers
# with a SETTINGS frame of its own; a web server, the dashboard, or a port nothing reads, does not
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _speaks_grpc(connection: socket.socket) -> bool:
    """Whether the server at the other end of ``connection`` answers as a gRPC (HTTP/2) server does."""
    try:
        connection.settimeout(REACH_SECONDS)
        connection.sendall(_HTTP2_HELLO)
        frame = b""
        while len(frame) < 9:
            chunk = connection.recv(9 - len(frame))
            if not chunk:
                return False
            frame += chunk
    except OSError:
        return False
    return frame[3] == 4  # the frame's type: SETTINGS


def _unreachable(address: str) -> str | None:
    """Why Ray does not answer at ``address`` (``host:port`` or ``ray://host[:port]``), or None if it may (or the
    address names no port, as ``auto``): Ray itself retries a dead address for minutes before it gives up, and one
    where something else answers (a web server, the dashboard, the client port without ray://) for ever."""
    client = address.startswith("ray://")
    rest = address.removeprefix("ray://")
    host, _, port = rest.rpartition(":")
    if client and (not host or (":" in host and not host.startswith("["))) and "/" not in rest:
        host, port = rest, str(CLIENT_PORT)  # ray://host: the client's own port
    if not host or not ascii_digits(port) or (":" in host and not host.startswith("[")):
        return None  # no port, or a bare IPv6 address (written [addr]:port when it has one): Ray's to judge
    if not 0 < int(port) < 65536:
        return f"{port} is not a port (1 to 65535)"
    try:
        connection = socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS)
    except (OSError, UnicodeError) as error:  # UnicodeError: a host name no resolver takes
        return f"nothing answers at {host}:{port} ({getattr(error, 'strerror', None) or error})"
    with connection:
        if os.environ.get("RAY_USE_TLS", "0").strip().lower() not in ("", "0", "false") or _speaks_grpc(connection):
            return None  # with TLS the plain HTTP/2 greeting goes unanswered: Ray's to judge
    what = "the head's GCS port (6379 by default)" if not client else "the Ray client's port (10001 by default)"
    return f"something answers at {host}:{port}, but not Ray (give {what})"


MAX_WORKERS = 4096


def check_workers(workers: object) -> None:
    """Refuse a worker count no backend can use (Ray started with 0 CPUs waited for ever for a CPU to play on)."""
    if workers is None:
        return
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers: a whole number from 1 to {MAX_WORKERS} (None: one per core), not {workers!r}")


NEEDS_RAY = "the Ray backend needs Ray: pip install 'kumiki[ray]'"


def check_backend(backend: str) -> None:
    """Refuse, before anything is written, a backend this machine cannot run (Ray not installed)."""
    if backend != "ray":
        return
    try:
        import ray  # noqa: F401  # only whether it imports
    except ImportError:
        raise BackendError(NEEDS_RAY) from None
    except Exception as error:  # installed but broken (a library or a protobuf of the wrong version): said, not raised
        raise BackendError(
            f"Ray is installed but does not import ({_first_line(error)}): pip install --force-reinstall 'kumiki[ray]'"
        ) from None


class Ray:
    """Ray, started here (a local Ray, or a connection to the cluster at ``address``) at the first run of games and
    kept until ``close``; one that was running already is used and left running."""

    def __init__(self, workers: int | None, address: str | None) -> None:
        self.workers = workers
        self.address = address
        self.started_here = False
        self.restore_stdout: Callable[[], None] = lambda: None

    def start(self) -> None:
        check_backend("ray")
        import ray

        if ray.is_initialized():
            return
        # without --address, Ray's own RAY_ADDRESS names the cluster (ray.init reads it): checked the same way, and
        # connected to without num_cpus, which Ray refuses for a cluster that is running already
        from_env = os.environ.get("RAY_ADDRESS", "").strip() or None
        address = self.address or from_env
        if address == "auto" and from_env not in (None, "auto"):
            address = from_env  # ray.init reads RAY_ADDRESS for "auto" too: that is the address to check
        if address == "local":
            address = None  # a Ray of our own, which takes --workers (connected to as an address, it did not)
        problem = _unreachable(address) if address else None
        if problem is not None:
            raise BackendError(f"cannot start or reach Ray at {address}: {problem}")
        # ray.init sets its own SIGTERM handler (sys.exit(15)) over the caller's: the CLI's clean stop (status 143,
        # "stopped (SIGTERM)") is put back, as is whatever handler a program embedding the arena had
        main_thread = threading.current_thread() is threading.main_thread()
        previous = signal.getsignal(signal.SIGTERM) if main_thread else None
        try:
            # the Ray client warns, over three lines, before it raises: the error says it
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if address:
                    ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
                else:  # "local": a Ray of our own, even where one runs already (ray start), which --address auto joins
                    ray.init(
                        address="local",
                        num_cpus=self.workers,
                        include_dashboard=False,
                        log_to_driver=False,
                        logging_level=logging.ERROR,
                    )
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise BackendError(f"cannot start or reach Ray at {address or 'this machine'}: {error}") from None
        except BaseException as stop:  # stopped while Ray starts (Ctrl-C; SIGTERM, which Ray's handler makes exit 15)
            ray.shutdown()  # what of Ray had started goes too
            if isinstance(stop, SystemExit) and stop.code == signal.SIGTERM and callable(previous):
                previous(signal.SIGTERM, None)  # the caller's own stop (the CLI's: status 143, "stopped (SIGTERM)")
            raise
        finally:
            if previous is not None:  # None: a handler not set from Python, which Python cannot set back
                signal.signal(signal.SIGTERM, previous)
        self.started_here = True
        self.restore_stdout = _raylet_lines_to_stderr()

    def close(self) -> None:
        if self.started_here:
            import ray

            ray.shutdown()
            self.restore_stdout()
            self.started_here = False


def _raylet_lines_to_stderr() -> Callable[[], None]:
    """Send the raylet's messages to the driver (a worker died, a task is retried: several lines each) to stderr.
    Ray prints them on stdout, whatever ``log_to_driver`` says, where ``kumiki arena run --quiet`` prints only the
    results folder for a script to read. Returns what sets Ray's printer back (nothing, with a Ray without it)."""
    from ray._private import worker as ray_worker

    printer = getattr(ray_worker, "print_to_stdstream", None)
    if printer is None or getattr(printer, "kumiki_stderr", False):
        return lambda: None

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> None:
        if data.get("pid") == "raylet":
            data = {**data, "is_err": True}
        printer(data, ignore_prefix)

    to_stderr.kumiki_stderr = True  # type: ignore[attr-defined]
    ray_worker.print_to_stdstream = to_stderr

    def restore() -> None:
        ray_worker.print_to_stdstream = printer

    return restore


def run_ray(
    job: Job, specs: Sequence[GameSpec], workers: int | None, address: str | None, cluster: Ray | None = None
) -> Iterator[list[dict[str, Any]]]:
    """Play the games as Ray tasks (``cluster``, kept by the caller, or Ray started for these games alone); rows
    stream back as tasks end and Ray re-runs the tasks of a worker that dies."""
    kept = Ray(workers, address) if cluster is None else cluster
    kept.start()
    import ray

    try:
        # [no-untyped-call]: Ray's API is only partly annotated
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        remote = ray.remote(num_cpus=1, max_retries=WORKER_DEATHS)(play_batch)
        shared = ray.put(job)
        queue = batches(specs, workers or cpus)
        in_flight: list[Any] = []
        limit = 2 * (workers or cpus)
        while queue or in_flight:
            while queue and len(in_flight) < limit:
                in_flight.append(remote.remote(shared, queue.pop(0)))
            done, in_flight = ray.wait(in_flight, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    except ray.exceptions.RayError as error:  # from any call of Ray's: a submission, a wait, a put, a get
        if isinstance(error, ray.exceptions.TaskCancelledError):
            # a KeyboardInterrupt inside a task (Ray cancels tasks by raising one; our runs never cancel): the stop
            # it is in a serial run and in the pool's workers, not an internal error
            raise KeyboardInterrupt from None
        if isinstance(error, ray.exceptions.RayTaskError):
            raise  # raised by our own code in a task: a bug, said as one
        raise BackendError(ray_failure(error)) from None
    finally:
        if cluster is None:
            kept.close()


def ray_failure(error: BaseException) -> str:
    """One line for Ray itself failing under a run (its node or a worker gone past the retries): the games finished
    are on disk, so the run can be taken up again."""
    return f"Ray failed ({_first_line(error)}); the games finished are kept, a re-run plays the rest"


def _first_line(error: BaseException) -> str:
    """``Name: first line`` of an error of Ray's (many lines, a traceback of its own, colour codes), cut at 200."""
    first = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
    return f"{type(error).__name__}: {first[:200]}"


class Session:
    """A backend kept open across runs of games, so that an SPRT's windows do not each start a process pool (or
    Ray) of their own: ``with Session(backend, workers, address) as session: execute(..., session=session)``."""

    def __init__(self, backend: str, workers: int | None = None, address: str | None = None) -> None:
        if backend not in BACKENDS:
            raise _unknown(backend)
        self.backend = backend
        self.pool = Pool(workers or default_workers()) if backend == "pool" else None
        self.ray = Ray(workers, address) if backend == "ray" else None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.discard()
        if self.ray is not None:
            self.ray.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def execute(
    job: Job,
    specs: Sequence[GameSpec],
    backend: str,
    workers: int | None = None,
    address: str | None = None,
    session: Session | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """The rows of ``specs``, batch by batch as they finish, from the chosen backend (the pool or Ray of
    ``session`` where one is given, else one started for these games alone)."""
    if backend == "serial":
        return run_serial(job, specs)
    if backend == "pool":
        return run_pool(job, specs, workers or default_workers(), session.pool if session is not None else None)
    if backend == "ray":
        return run_ray(job, specs, workers, address, session.ray if session is not None else None)
    raise _unknown(backend)


def _unknown(backend: str) -> BackendError:
    return BackendError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
