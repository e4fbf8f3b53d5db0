"""The bounded executor that runs model calls off the event loop: back-pressure and time limits."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from app.concurrency import BoundedExecutor
from app.errors import DependencyTimeoutError, OverloadedError


async def test_bounded_executor_rejects_when_full_and_times_out() -> None:
    ex = BoundedExecutor("t", workers=1, max_queue=1)
    gate = threading.Event()
    first = asyncio.ensure_future(ex.run(gate.wait, 5))
    second = asyncio.ensure_future(ex.run(lambda: 2))
    await asyncio.sleep(0.05)
    assert ex.in_flight == 2
    with pytest.raises(OverloadedError) as info:
        await ex.run(lambda: 3)
    assert info.value.status == 503 and info.value.retry_after_s >= 1
    gate.set()
    assert await first is True and await second == 2
    with pytest.raises(DependencyTimeoutError):
        await ex.run(time.sleep, 0.5, timeout_s=0.05)
    ex.shutdown()
