"""ServerWatch without a server: a short read past its deadline marks the server unresponsive only when a ping
gets no answer either."""

from __future__ import annotations

import asyncio

import pytest

from app.errors import DependencyTimeoutError
from app.stores.graph.liveness import ServerWatch


async def _answered() -> bool:
    return True


async def _unanswered() -> bool:
    await asyncio.sleep(30)
    return True


@pytest.mark.parametrize(("ping", "marked"), [(_answered, False), (_unanswered, True)])
async def test_a_short_read_past_its_deadline_marks_the_server_only_when_a_ping_goes_unanswered(
    ping: object, marked: bool
) -> None:
    watch = ServerWatch("graph", ping, answer_within_s=10.0)  # type: ignore[arg-type]
    try:
        with pytest.raises(DependencyTimeoutError):
            await watch.wait(asyncio.sleep(30), 0.1)  # a query deadline shorter than the server's
        assert watch.unresponsive is marked
        if not marked:  # the next read is not failed early
            assert await watch.wait(asyncio.sleep(0, result="rows"), 1.0) == "rows"
    finally:
        await watch.close()


async def test_a_read_at_the_full_deadline_marks_the_server_at_once() -> None:
    """A read given the whole ``answer_within_s`` that gets nothing marks the server without a further ping (the
    paused-server bound: one deadline, no more)."""
    pings = 0

    async def ping() -> bool:
        nonlocal pings
        pings += 1
        return True

    watch = ServerWatch("graph", ping, answer_within_s=0.2)
    try:
        with pytest.raises(DependencyTimeoutError):
            await watch.wait(asyncio.sleep(30), 0.2)
        assert watch.unresponsive and pings == 0
    finally:
        await watch.close()
