"""API keys with namespace scopes, and per-key rate limits.

**Keys.** ``python -m app keys create --name N --namespaces a,b [--admin] [--rate R]`` prints a key once
(``grk_<id>_<secret>``) and stores only its SHA-256 in the **keys file** (JSON, ``server.keys_file``, default
``<data_dir>/keys.json``, written 0600; the secret is 32 random bytes, so a fast hash is enough). A key names the
namespaces it may read and write (``*``: all), whether it may use the admin routes, and its requests per minute.
The server re-reads the file when it changes, so created and revoked keys apply without a restart.

**Who is asking** (``Principal``), resolved from ``Authorization: Bearer …`` before the request body is read:

* a key from the keys file (compared in constant time);
* ``server.admin_token``: an admin over every namespace (kept for deployments that predate keys);
* with no keys at all (development): an anonymous caller over every namespace, without admin rights — the server
  logs at start-up that it is open. ``environment=production`` refuses to start without a key.

**Rate limits**: a sliding window of one minute per key, in Redis (the result cache's server: the embedded
FalkorDB one or ``cache.url``) so replicas share it, and in process memory when no Redis is configured or it
fails. Over the limit: 429 with ``Retry-After``."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.errors import ForbiddenError
from app.observability import CACHE_ERRORS

log = logging.getLogger(__name__)

PREFIX = "grk"
ALL = "*"
WINDOW_S = 60.0
WARN_EVERY_S = 60.0
"""How often a Redis outage of the rate limiter is logged (each failed call is counted in
``graphrag_cache_errors_total{operation="rate_limit"}``)."""


@dataclass(frozen=True)
class ApiKey:
    id: str
    name: str
    hash: str
    namespaces: tuple[str, ...]
    admin: bool = False
    rate_per_min: int | None = None
    created: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "namespaces": list(self.namespaces)}


@dataclass(frozen=True)
class Principal:
    """The caller of one request."""

    id: str
    """The key's id, ``admin-token`` or ``anonymous``: what rate limits and logs count by."""
    name: str
    namespaces: frozenset[str] | None
    """The namespaces it may use; None: every one."""
    admin: bool = False
    rate_per_min: int | None = None

    def sees(self, namespace: str) -> bool:
        return self.namespaces is None or namespace in self.namespaces

    def require(self, namespace: str) -> None:
        """403 unless the caller may use ``namespace`` (the message names only what the caller sent)."""
        if not self.sees(namespace):
            raise ForbiddenError(f"this key has no access to namespace {namespace!r}")


ANONYMOUS = Principal("anonymous", "anonymous (no keys configured)", None)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class KeyStore:
    """The keys file: created, listed and revoked by the CLI; read (and re-read when it changes) by the server."""

    path: Path
    _keys: dict[str, ApiKey] = field(default_factory=dict)
    _stamp: tuple[int, int] | None = None
    _checked: float = 0.0

    def entries(self) -> list[ApiKey]:
        self.refresh()
        return sorted(self._keys.values(), key=lambda k: k.created)

    def refresh(self, *, every_s: float = 1.0) -> None:
        """Re-read the file if it changed (checked at most every ``every_s``)."""
        now = time.monotonic()
        if self._stamp is not None and now - self._checked < every_s:
            return
        self._checked = now
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._keys, self._stamp = {}, (0, 0)
            return
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp == self._stamp:
            return
        data = json.loads(self.path.read_text(encoding="utf-8") or "{}")
        keys = {}
        for k in data.get("keys", []):
            keys[k["id"]] = ApiKey(**{**k, "namespaces": tuple(k["namespaces"])})
        self._keys, self._stamp = keys, stamp

    def _write(self, keys: list[ApiKey]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"keys": [k.to_json() for k in keys]}, fh, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)
        self._stamp = None

    def create(
        self, name: str, namespaces: list[str], *, admin: bool = False, rate_per_min: int | None = None
    ) -> tuple[ApiKey, str]:
        """A new key; returns it and the token (shown once: only its hash is stored)."""
        if not namespaces:
            raise ValueError("a key needs at least one namespace (or '*')")
        key_id = secrets.token_hex(4)
        token = f"{PREFIX}_{key_id}_{secrets.token_urlsafe(32)}"
        key = ApiKey(key_id, name, _hash(token), tuple(namespaces), admin, rate_per_min, round(time.time(), 3))
        self._write([*self.entries(), key])
        return key, token

    def revoke(self, key_id: str) -> bool:
        keys = self.entries()
        kept = [k for k in keys if k.id != key_id]
        if len(kept) == len(keys):
            return False
        self._write(kept)
        return True

    def authenticate(self, token: str) -> ApiKey | None:
        """The key ``token`` is, or None; the comparison takes the same time whether the id exists or not."""
        self.refresh()
        parts = token.split("_", 2)
        key_id = parts[1] if len(parts) == 3 and parts[0] == PREFIX else None
        if key_id is not None and key_id not in self._keys:
            self.refresh(every_s=0)  # a key created a moment ago (one stat() when the file did not change)
        key = self._keys.get(key_id) if key_id is not None else None
        expected = key.hash if key is not None else _hash("no such key")
        ok = hmac.compare_digest(_hash(token), expected)
        return key if ok and key is not None else None


def principal_of(key: ApiKey, default_rate: int | None) -> Principal:
    scopes = None if ALL in key.namespaces else frozenset(key.namespaces)
    rate = key.rate_per_min if key.rate_per_min is not None else default_rate
    return Principal(key.id, key.name, scopes, key.admin, rate)


class RateLimiter:
    """Sliding-window request counts per principal: in Redis when a client is given (shared by replicas), else — or
    when Redis fails — in this process."""

    _SCRIPT = """
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
  return '0'
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tostring(tonumber(oldest[2]) + window - now)
"""

    def __init__(self, client: Any = None, *, timeout_s: float = 0.5, window_s: float = WINDOW_S) -> None:
        self.client = client
        self.timeout_s = timeout_s
        self.window_s = window_s
        self._local: dict[str, deque[float]] = {}
        self._warned = float("-inf")

    async def hit(self, who: str, limit: int) -> float:
        """Count one request of ``who``; 0 when allowed, else the seconds until one is allowed again."""
        if self.client is not None:
            try:
                wait = await asyncio.wait_for(
                    self.client.eval(
                        self._SCRIPT, 1, f"graphrag:rl:{who}", time.time(), self.window_s, limit, secrets.token_hex(8)
                    ),
                    self.timeout_s,
                )
                return max(0.0, float(wait.decode() if isinstance(wait, bytes) else wait))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the shared window is down: count here, as one replica would
                CACHE_ERRORS.labels(operation="rate_limit").inc()
                if time.monotonic() - self._warned > WARN_EVERY_S:  # once a minute, not once per request
                    self._warned = time.monotonic()
                    log.warning("rate limiter: Redis unavailable (%s); counting in this process", type(exc).__name__)
        now = time.monotonic()
        q = self._local.setdefault(who, deque())
        while q and q[0] <= now - self.window_s:
            q.popleft()
        if len(q) < limit:
            q.append(now)
            return 0.0
        return q[0] + self.window_s - now
