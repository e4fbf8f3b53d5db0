from __future__ import annotations

from typing import Any

from app.schemas import ErrorResponse

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "Malformed request"},
    413: {"model": ErrorResponse, "description": "Body too large"},
    422: {"model": ErrorResponse, "description": "Invalid input (bounds, unknown mode, bad namespace)"},
    503: {"model": ErrorResponse, "description": "Overloaded or a backend is unavailable (see Retry-After)"},
    504: {"model": ErrorResponse, "description": "A backend timed out"},
}
