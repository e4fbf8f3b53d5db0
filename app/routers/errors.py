from __future__ import annotations

from typing import Any

from app.schemas import ErrorResponse

RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before retrying", "schema": {"type": "integer"}}}

COMMON_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "Missing or unknown API key (keys are configured)"},
    403: {"model": ErrorResponse, "description": "The key may not use this namespace (or this admin route)"},
    429: {"model": ErrorResponse, "description": "Over the key's rate (see Retry-After)", "headers": RETRY_AFTER},
    504: {
        "model": ErrorResponse,
        "description": "A backend timed out (see Retry-After), or no response within server.request_timeout_s",
    },
}
"""What any route but the probes may answer (the auth and deadline middlewares)."""

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    **COMMON_RESPONSES,
    400: {"model": ErrorResponse, "description": "Malformed request"},
    404: {"model": ErrorResponse, "description": "No such namespace, document or item"},
    409: {"model": ErrorResponse, "description": "The same ingest is already running"},
    413: {"model": ErrorResponse, "description": "Body too large"},
    422: {"model": ErrorResponse, "description": "Invalid input (bounds, unknown mode, bad namespace)"},
    503: {
        "model": ErrorResponse,
        "description": "Overloaded or a backend is unavailable (see Retry-After)",
        "headers": RETRY_AFTER,
    },
}
