"""The service's error family.

Every error the service raises on purpose is an ``AppError`` with an HTTP status, a stable machine-readable
``code`` and whether retrying may help. One handler (``app.main``) renders them as
``{"error": {"code", "message", "type", "retryable", "request_id", "details"}}``; anything else becomes a generic
500 whose stack trace goes to the log only.
"""

from __future__ import annotations

from typing import Any


class AppError(Exception):
    status: int = 500
    code: str = "internal_error"
    retryable: bool = False
    retry_after_s: int | None = None
    """Sent as ``Retry-After`` (seconds) with the error."""

    def __init__(self, message: str, *, details: Any = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details
        if code is not None:
            self.code = code


class BadRequestError(AppError):
    status = 400
    code = "bad_request"


class InvalidInputError(AppError):
    status = 422
    code = "invalid_input"


class AuthError(AppError):
    status = 401
    code = "unauthorized"


class ForbiddenError(AppError):
    status = 403
    code = "forbidden"


class NotFoundError(AppError):
    status = 404
    code = "not_found"


class PayloadTooLargeError(AppError):
    status = 413
    code = "payload_too_large"


class OverloadedError(AppError):
    """A bounded queue is full: the client should retry after ``retry_after_s``."""

    status = 503
    code = "overloaded"
    retryable = True

    def __init__(self, message: str, *, retry_after_s: int = 1, details: Any = None) -> None:
        super().__init__(message, details=details)
        self.retry_after_s = retry_after_s


class DependencyError(AppError):
    """A backend (graph store, vector store, model, worker) failed or is unreachable."""

    status = 503
    code = "dependency_unavailable"
    retryable = True
    retry_after_s = 2

    def __init__(self, backend: str, message: str, *, details: Any = None) -> None:
        super().__init__(f"{backend}: {message}", details=details)
        self.backend = backend


class DependencyTimeoutError(DependencyError):
    status = 504
    code = "dependency_timeout"


class QueryRejectedError(AppError):
    """A Cypher query failed the read-only / safety checks or the engine refused it."""

    status = 422
    code = "query_rejected"


class StoreLockedError(AppError):
    """The embedded data dir is held by another process (a running server or another ingest)."""

    status = 409
    code = "data_dir_locked"


class IngestConflictError(AppError):
    """The same ingest (same content, same namespace) is already running in another process."""

    status = 409
    code = "ingest_running"


class JobConflictError(AppError):
    """A background job of the kind asked for is already running (one tuning job at a time)."""

    status = 409
    code = "job_running"
