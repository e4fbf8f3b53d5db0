"""How long a graph store waits for a server that may have stopped answering (paused, hung, cut off).

Every read a request makes waits at most its deadline (``graph.query_timeout_s`` unless the caller gives one). A
read allowed longer than that (an index or schema read over a large graph) is not left to hang on a dead server: it
pings the server every half of ``query_timeout_s`` while it waits, and gives up as soon as a ping gets no answer in
that time. A server that answered nothing in time is marked *unresponsive*: until a background ping gets an answer
again (every ``probe_every_s``), every read fails at once instead of waiting out its own deadline, so a request that
makes many reads degrades within one deadline, not one per read. A read given a shorter deadline than
``query_timeout_s`` that runs past it on a server still answering a ping is only slow (a busy server): it fails
alone and marks nothing. Writes (ingest) are patient: they wait out their
own deadline and are not failed early.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from app.errors import DependencyError, DependencyTimeoutError

log = logging.getLogger(__name__)

T = TypeVar("T")

EXPIRY_PING_S = 0.5
"""How long a read past its deadline that sent no ping waits for one to be answered before the server is marked."""


class ServerWatch:
    def __init__(
        self,
        backend: str,
        ping: Callable[[], Awaitable[object]],
        *,
        answer_within_s: float,
        probe_every_s: float = 0.2,
    ) -> None:
        self.backend = backend
        self._ping = ping
        self.answer_within_s = answer_within_s
        """A server that answers neither a query nor a ping in this time is taken as not answering."""
        self.probe_every_s = probe_every_s
        self.unresponsive = False
        self._probe: asyncio.Task[None] | None = None

    def check(self) -> None:
        """Fail at once while the server is marked unresponsive."""
        if self.unresponsive:
            raise DependencyError(
                self.backend,
                f"the graph server is not answering (nothing within {self.answer_within_s:g} s); "
                "failing fast until it answers again",
            )

    async def alive(self, within_s: float) -> bool:
        """The server answers a ping within ``within_s``."""
        try:
            return bool(await asyncio.wait_for(self._ping(), within_s))
        except Exception:
            return False

    def mark(self) -> None:
        """The server answered nothing in time: fail reads fast until a ping is answered again."""
        if not self.unresponsive:
            log.warning("%s: the graph server answered nothing in time; reads fail fast until it answers", self.backend)
        self.unresponsive = True
        if self._probe is None or self._probe.done():
            self._probe = asyncio.create_task(self._until_answering())

    async def _until_answering(self) -> None:
        while self.unresponsive:
            await asyncio.sleep(self.probe_every_s)
            if await self.alive(1.0):
                self.unresponsive = False
                log.warning("%s: the graph server answers again", self.backend)

    async def wait(self, work: Awaitable[T], deadline_s: float, *, patient: bool = False) -> T:
        """``work``'s result, or ``DependencyTimeoutError`` at ``deadline_s`` (or sooner, see the module doc); the
        work is cancelled when it is given up. ``patient`` (writes): only the deadline, no early failure."""
        if not patient and self.unresponsive:
            if inspect.iscoroutine(work):
                work.close()  # never started
            self.check()
        task = asyncio.ensure_future(work)
        loop = asyncio.get_running_loop()
        end = loop.time() + deadline_s
        # a read allowed longer than answer_within_s asks the server for a sign of life every half of it
        step = deadline_s if patient or deadline_s <= self.answer_within_s else self.answer_within_s / 2
        pinged: bool | None = None  # None: no ping during this wait; else whether the last one was answered
        try:
            while (left := end - loop.time()) > 0:
                done, _ = await asyncio.wait({task}, timeout=min(step, left))
                if done:
                    return task.result()
                if end - loop.time() <= 0:
                    break
                pinged = await self.alive(self.answer_within_s / 2)
                if not pinged:
                    break  # otherwise alive and still working on it: wait on
            # a read given less than answer_within_s asks once, briefly, before the server is taken as not
            # answering: one slow query on a busy server is no dead server
            if pinged is None and not patient and deadline_s < self.answer_within_s:
                pinged = await self.alive(EXPIRY_PING_S)
            if not patient and not pinged:
                self.mark()
            raise DependencyTimeoutError(self.backend, "no answer from the graph server in time")
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def close(self) -> None:
        probe, self._probe = self._probe, None
        self.unresponsive = False
        if probe is not None:
            probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await probe
