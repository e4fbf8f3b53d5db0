"""The ingest journal: every ingest leaves a node in the namespace it writes to before its first write and removes it
as its last, so a half-done ingest is found after a crash and finished.

An entry (``_IngestJournal``, keyed by the content's SHA-256) holds what is needed to run the ingest again: the
source path and its digest, or the inline content itself (up to ``ingest.journal_payload_bytes``); and, for a Cypher
script, how many statements are done (``_next``), written in the same transaction as each statement
(``GraphStore.execute(marker=...)``) so a script that is not idempotent is resumed, never run twice. Triples and
documents are idempotent (MERGEs, upserts, page digests written last) and are simply run again.

States: ``running`` (its owner's heartbeat is fresh: someone is at it), ``interrupted`` (the service stopped mid-way)
and ``failed`` (an error was returned to the caller; kept so ``/namespaces`` shows the namespace as incomplete until
the same content is ingested again). A ``running`` entry whose owner is gone (its heartbeat older than
``ingest.journal_lease_s``, or any owner but this process where the embedded data-dir lock makes this process the
only writer) and an ``interrupted`` one are finished by ``Ingestor.recover()`` at start-up.

The entry is made durable (``GraphStore.flush``) before any vector is written: a crash can then never leave vectors
the graph does not know about without a journal entry saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from app.cypher import queries as Q
from app.errors import DependencyError, IngestConflictError
from app.stores.graph.base import GraphStore

log = logging.getLogger(__name__)

RUNNING, INTERRUPTED, FAILED = "running", "interrupted", "failed"


@dataclass
class JournalEntry:
    namespace: str
    sha: str
    kind: str
    next: int = 0
    """Statements of a Cypher script already applied (the resume point)."""


class IngestJournal:
    def __init__(self, graph: GraphStore, *, lease_s: float, exclusive: bool) -> None:
        self.graph = graph
        self.lease_s = lease_s
        self.exclusive = exclusive
        """This process is the graph's only writer (the embedded data dir's lock): any other owner is dead."""
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._live: set[tuple[str, str]] = set()
        """(namespace, sha) of the entries this process is working on now."""

    def abandoned(self, row: dict[str, Any], namespace: str) -> bool:
        """The entry is not being worked on by a live process (so it may be taken over or finished). One of this
        process's own that it is not working on was left running by a graph server that lost its end (restarted
        from a save made mid-way)."""
        if row["state"] != RUNNING:
            return True
        if row["owner"] == self.owner:
            return (namespace, row["sha"]) not in self._live
        return self.exclusive or time.time() - float(row["beat"] or 0) > self.lease_s

    async def entries(self, namespace: str) -> list[dict[str, Any]]:
        return await self.graph.read(namespace, Q.JOURNAL_OPEN, max_rows=100_000)

    async def begin(
        self,
        namespace: str,
        kind: str,
        sha: str,
        source: dict[str, Any],
        payload: str | None,
        *,
        recovering: bool = False,
    ) -> JournalEntry:
        """Open (or take over) the entry of this content, durably. ``IngestConflictError`` when a live process is
        running the same ingest. ``recovering``: start-up finishing a cut-off ingest (counted in ``_attempts``)."""
        row = next((r for r in await self.entries(namespace) if r["sha"] == sha), None)
        if row is not None and not self.abandoned(row, namespace):
            raise IngestConflictError(
                f"this content is already being ingested into {namespace!r}; retry when it is done",
                details={"started": row["started"]},
            )
        params = {
            "sha": sha,
            "kind": kind,
            "owner": self.owner,
            "now": time.time(),
            "source": json.dumps(source, sort_keys=True),
            "payload": payload,
            "recovering": recovering,
        }
        self._live.add((namespace, sha))  # before the entry exists: never seen abandoned by this process's recover
        try:
            await self.graph.execute(namespace, Q.JOURNAL_BEGIN, params)
            await self.graph.flush()
        except BaseException:
            self._live.discard((namespace, sha))
            raise
        resumed = int(row["next"] or 0) if row is not None else 0
        if row is not None:
            log.warning("ingest into %r: taking over a %s %s ingest at step %d", namespace, row["state"], kind, resumed)
        return JournalEntry(namespace, sha, kind, next=resumed)

    def marker(self, entry: JournalEntry, done: int) -> tuple[str, dict[str, Any]]:
        """The bookkeeping write that records ``done`` statements, to run atomically with the statement."""
        return Q.JOURNAL_NEXT, {"sha": entry.sha, "next": done}

    async def end(self, entry: JournalEntry) -> None:
        await self.graph.execute(entry.namespace, Q.JOURNAL_END, {"sha": entry.sha})

    def left(self, namespace: str, sha: str) -> None:
        """This process no longer works on the entry (it ended, failed or was interrupted)."""
        self._live.discard((namespace, sha))

    async def stop(self, namespace: str, sha: str, state: str, error: str) -> None:
        """Mark the entry ``interrupted`` or ``failed`` (with the reason). Its resume point stays the one in the
        graph, written with the last statement the graph kept: a server that crashed and came back from its last
        save has lost the statements after it, whatever this process counted."""
        params = {"sha": sha, "state": state, "error": error[:2000], "next": None}
        await self.graph.execute(namespace, Q.JOURNAL_STOP, params)

    async def stop_durably(self, namespace: str, sha: str, state: str, error: str, *, wait_s: float) -> None:
        """``stop`` and save, waiting up to ``wait_s`` for a graph server that is coming back (the embedded one is
        restarted by its supervisor after a crash): a failed entry must outlive the crash that failed it, or
        start-up would run the statement that crashed the server again."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                await self.stop(namespace, sha, state, error)
                await self.graph.flush()
                return
            except DependencyError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    @contextlib.asynccontextmanager
    async def heartbeat(self, entry: JournalEntry) -> AsyncIterator[None]:
        """Refresh the entry's heartbeat every third of the lease while the ingest runs, so other replicas know it
        is alive."""

        async def beat() -> None:
            while True:
                await asyncio.sleep(self.lease_s / 3)
                try:
                    params = {"sha": entry.sha, "owner": self.owner, "now": time.time()}
                    await self.graph.execute(entry.namespace, Q.JOURNAL_BEAT, params)
                except Exception as exc:  # the ingest itself will hit the same fault and report it
                    log.warning("ingest journal heartbeat failed: %s", exc)

        task = asyncio.create_task(beat())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
