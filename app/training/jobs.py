"""Tuning while serving: ``POST /admin/tune`` starts a background job on the running service (pairs from the
namespace's graph, the LoRA adapter trained in a worker thread) and ``GET /admin/jobs/{id}`` shows its progress.

Serving goes on throughout. When the job ends well the new adapter is moved into place with one rename (a request
reads the old adapter or the new one, never half of one), the namespace's cached results are dropped (its cache
version is bumped, and cache keys carry the adapter's version as well), and the mode uses it from the next
request. A failed or cancelled job changes nothing. One job runs at a time (a second is refused with 409): training
takes the CPU a service shares with its requests, and two at once slow both several-fold.

What this module must not do: run training on the event loop, or install an adapter a cancelled job built.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

from app.container import Container
from app.errors import AppError, JobConflictError, NotFoundError
from app.training.lora import TrainingCancelled
from app.training.selftune import tune

log = logging.getLogger(__name__)

JobStatus = Literal["running", "succeeded", "failed", "cancelled"]
KEEP_FINISHED = 50
"""Finished jobs remembered (the oldest are forgotten first)."""


@dataclass
class TuneJob:
    id: str
    namespace: str
    minutes: float
    status: JobStatus = "running"
    stage: str = "starting"
    """``pairs``, ``training``, ``installing``, then ``done``."""
    done: int = 0
    total: int = 0
    started_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    stop: threading.Event = field(default_factory=threading.Event, repr=False)
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def progress(self, stage: str, done: int, total: int) -> None:
        """Told by the tuning run (from the event loop or the training thread: plain attribute writes)."""
        self.stage, self.done, self.total = stage, done, total

    def view(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "namespace": self.namespace,
            "status": self.status,
            "stage": self.stage,
            "done": self.done,
            "total": self.total,
            "minutes": self.minutes,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "seconds": round((self.finished_at or time.time()) - self.started_at, 1),
            "result": self.result,
            "error": self.error,
        }


class TuneJobs:
    """The service's tuning jobs (``app.state.tune_jobs``, built by the lifespan)."""

    def __init__(self, container: Container) -> None:
        self.container = container
        self.jobs: dict[str, TuneJob] = {}

    def running(self) -> TuneJob | None:
        return next((j for j in self.jobs.values() if j.status == "running"), None)

    def start(self, namespace: str, *, minutes: float, max_pairs: int, seed: int = 13) -> TuneJob:
        busy = self.running()
        if busy is not None:
            raise JobConflictError(
                f"a tuning job is running (id {busy.id}, namespace {busy.namespace!r}); one runs at a time",
                details={"job": busy.id},
            )
        job = TuneJob(uuid.uuid4().hex[:12], namespace, minutes)
        self.jobs[job.id] = job
        job.task = asyncio.create_task(self._run(job, max_pairs=max_pairs, seed=seed), name=f"tune-{job.id}")
        self._forget_old()
        return job

    def get(self, job_id: str) -> TuneJob:
        job = self.jobs.get(job_id)
        if job is None:
            raise NotFoundError(f"no tuning job {job_id!r}")
        return job

    def cancel(self, job_id: str) -> TuneJob:
        """Ask a running job to stop (it stops at its next step; nothing it built is installed)."""
        job = self.get(job_id)
        if job.status == "running":
            job.stop.set()
        return job

    async def close(self) -> None:
        """Stop every running job and wait for it (the service is shutting down)."""
        for job in self.jobs.values():
            job.stop.set()
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, job: TuneJob, *, max_pairs: int, seed: int) -> None:
        c = self.container
        try:
            stats = await tune(
                c.settings,
                job.namespace,
                minutes=job.minutes,
                max_pairs=max_pairs,
                seed=seed,
                paraphrase_share=0.0,
                container=c,
                progress=job.progress,
                stop=job.stop,
            )
        except TrainingCancelled as exc:
            job.status, job.error = "cancelled", str(exc)
        except AppError as exc:
            job.status, job.error = "failed", exc.message
        except Exception as exc:  # a job's failure is reported on the job, never raised into the service
            log.exception("tuning job %s failed", job.id)
            job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"
        else:
            job.stage = "installing"
            if c.cache is not None:  # the adapter is in place: answers cached before it are not served again
                await c.cache.bump_version(job.namespace)
            job.status, job.stage, job.result = "succeeded", "done", _summary(stats)
        finally:
            job.finished_at = time.time()

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.status != "running"]
        for j in sorted(finished, key=lambda j: j.started_at)[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.jobs[j.id]


def _summary(stats: dict[str, Any]) -> dict[str, Any]:
    """What a job reports of its run (``tune``'s statistics without the per-pair details)."""
    training = stats.get("training") or {}
    return {
        "pairs": stats.get("pairs"),
        "pair_seconds": stats.get("pair_seconds"),
        "training_steps": training.get("steps"),
        "loss_first10": training.get("loss_first10"),
        "loss_last10": training.get("loss_last10"),
        "total_seconds": stats.get("total_seconds"),
        "adapter": stats.get("adapter"),
        "ranker": stats.get("ranker"),
    }
