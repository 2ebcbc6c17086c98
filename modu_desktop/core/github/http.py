"""The client's HTTP floor: one exchange, GitHub's error statuses as typed errors, retries.

- TLS through the OS trust store (`truststore`) for https; plain http only to loopback.
- Reads retry with jittered exponential backoff on 5xx, network errors and rate limits
  (honouring `retry-after` / `x-ratelimit-reset`), bounded in attempts and total waiting.
- Every response's `Date` header feeds a `ServerClock`; the token's expiry header is kept.
- The token is held in a `Secret` that never shows itself in repr/str/logs/exceptions.

`HttpCore` is the base of `GitHubClient` (`client.py`); the reads, the git database and the
Contents API writes are built on it (`reads.py`, `gitdata.py`, `contents.py`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import ssl
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import quote

import httpx

from modu_desktop import __version__
from modu_desktop.core.github.clock import ServerClock, parse_http_date
from modu_desktop.core.github.errors import (
    BadCredentials,
    GitHubConflict,
    GitHubError,
    NetworkError,
    NotFastForward,
    NotFound,
    PermissionDenied,
    RateLimited,
    RepositoryEmpty,
    ServerError,
    ShaMissing,
    ValidationFailed,
)
from modu_desktop.core.github.types import RepoRef, RetryPolicy, Secret, Tree
from modu_desktop.core.github.writes import RaceCounts, RaceRetry

log = logging.getLogger(__name__)

API_VERSION = "2022-11-28"
DEFAULT_API_URL = "https://api.github.com"

Sleep = Callable[[float], Awaitable[None]]


class HttpCore:
    """One repository's HTTP session. Use `async with …` or `aclose()`."""

    def __init__(
        self,
        api_url: str,
        token: str | Secret | None,
        repo: RepoRef,
        *,
        user_agent: str = f"ModuDesktop/{__version__}",
        timeout: float | httpx.Timeout = 20.0,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: ServerClock | None = None,
        retry: RetryPolicy | None = None,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        allow_insecure_http: bool = False,
        race: RaceRetry | None = None,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        url = httpx.URL(self.api_url)
        if url.scheme not in ("http", "https") or not url.host:
            raise ValueError(f"not an API URL: {self.api_url!r}")
        if url.scheme == "http" and not _is_loopback(url.host) and not allow_insecure_http:
            raise ValueError(
                "refusing to send a GitHub token over plain http to "
                f"{url.host}; use https (plain http is for the local sandbox)"
            )
        self.repo = repo
        self.clock = clock if clock is not None else ServerClock()
        self.retry = retry if retry is not None else RetryPolicy()
        self.race = race if race is not None else RaceRetry()
        self.race_counts = RaceCounts()
        self._sleep: Sleep = sleep if sleep is not None else asyncio.sleep
        self._rng = rng if rng is not None else random.Random()
        self._token = token if isinstance(token, Secret) else Secret(token or "")
        self._tree_cache: dict[str, Tree] = {}
        self.last_rate: dict[str, str] = {}
        self.request_count = 0
        # When GitHub says the token stops working (epoch seconds; None: it never expires, or
        # no answer has said so yet), from the `GitHub-Authentication-Token-Expiration` header.
        self.token_expires_at: float | None = None

        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": API_VERSION,
            "User-Agent": user_agent,
        }
        if isinstance(timeout, (int, float)):
            timeout = httpx.Timeout(float(timeout), connect=min(10.0, float(timeout)))
        verify: ssl.SSLContext | bool = True
        if transport is None and self.api_url.startswith("https://"):
            import truststore

            verify = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        elif transport is None and url.scheme == "http" and _is_loopback(url.host):
            verify = False  # the loopback sandbox: no TLS context to build (~60 ms at start-up)
        self._http = httpx.AsyncClient(
            base_url=self.api_url,
            headers=headers,
            timeout=timeout,
            transport=transport,
            verify=verify,
            follow_redirects=True,
            auth=_BearerAuth(self._token),
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.api_url!r}, repo={self.repo!r}, token=***)"

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # ------------------------------------------------------------------ low level

    @property
    def _repo_path(self) -> str:
        return f"/repos/{quote(self.repo.owner, safe='')}/{quote(self.repo.name, safe='')}"

    def _scrub(self, text: str) -> str:
        tok = self._token.reveal()
        if tok and tok in text:
            text = text.replace(tok, "***")
        return text

    async def _send_once(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        follow_redirects: bool = True,
    ) -> httpx.Response:
        """One HTTP exchange. Transport failures become NetworkError; no status mapping."""
        sent = self.clock.local_now()
        self.request_count += 1
        try:
            resp = await self._http.request(
                method,
                url,
                params=params,
                json=json,
                headers=headers,
                follow_redirects=follow_redirects,
            )
        except httpx.TimeoutException as exc:
            not_sent = isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout))
            log.debug("%s %s: timeout (%s)", method, url, type(exc).__name__)
            raise NetworkError(
                f"timed out ({type(exc).__name__})",
                kind="timeout",
                sent=not not_sent,
                method=method,
                path=url,
            ) from None
        except httpx.TransportError as exc:
            not_sent = isinstance(exc, httpx.ConnectError)
            detail = self._scrub(str(exc)) or type(exc).__name__
            log.debug("%s %s: transport error %s", method, url, type(exc).__name__)
            raise NetworkError(
                f"connection failed ({type(exc).__name__}: {detail})",
                kind="connection",
                sent=not not_sent,
                method=method,
                path=url,
            ) from None
        received = self.clock.local_now()
        self.clock.observe(resp.headers.get("date"), sent, received)
        expiry = resp.headers.get("github-authentication-token-expiration")
        if expiry is not None:
            self.token_expires_at = parse_token_expiration(expiry) or self.token_expires_at
        for h in (
            "x-ratelimit-limit",
            "x-ratelimit-remaining",
            "x-ratelimit-reset",
            "x-ratelimit-resource",
        ):
            if h in resp.headers:
                self.last_rate[h] = resp.headers[h]
        log.debug("%s %s -> %s", method, url, resp.status_code)
        return resp

    def _error_for(self, resp: httpx.Response, method: str, url: str) -> GitHubError:
        status = resp.status_code
        body: Any = None
        message = ""
        try:
            body = resp.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and isinstance(body.get("message"), str):
            message = body["message"]
        elif resp.text:
            message = resp.text[:300]
        else:
            message = resp.reason_phrase or f"HTTP {status}"
        message = self._scrub(message)
        kw: dict[str, Any] = {
            "request_id": resp.headers.get("x-github-request-id"),
            "method": method,
            "path": url,
            "body": body,
        }
        low = message.lower()
        remaining = resp.headers.get("x-ratelimit-remaining")
        retry_after = resp.headers.get("retry-after")
        if status in (403, 429) and (
            remaining == "0" or retry_after is not None or "rate limit" in low or status == 429
        ):
            secondary = remaining != "0" or "secondary" in low
            retry_at: float | None = None
            if retry_after is not None:
                retry_at = self._retry_after_to_local(retry_after)
            if retry_at is None and remaining == "0":
                reset = resp.headers.get("x-ratelimit-reset")
                if reset and reset.strip().isdigit():
                    retry_at = self.clock.to_local(float(reset))
            return RateLimited(status, message, retry_at=retry_at, secondary=secondary, **kw)
        if status == 401:
            return BadCredentials(status, message, **kw)
        if status == 403:
            return PermissionDenied(status, message, **kw)
        if status == 404:
            return NotFound(status, message, **kw)
        if status == 409:
            if "is empty" in low:
                return RepositoryEmpty(status, message, **kw)
            return GitHubConflict(status, message, **kw)
        if status == 422:
            if "sha" in low and ("wasn't supplied" in low or "weren't supplied" in low):
                return ShaMissing(status, message, **kw)
            if "not a fast forward" in low:
                return NotFastForward(status, message, **kw)
            return ValidationFailed(status, message, **kw)
        if status >= 500:
            return ServerError(status, message, **kw)
        return GitHubError(status, message, **kw)

    def _retry_after_to_local(self, value: str) -> float | None:
        value = value.strip()
        now = self.clock.local_now()
        try:
            return now + max(0.0, float(value))
        except ValueError:
            pass
        ts = parse_http_date(value)
        return None if ts is None else self.clock.to_local(ts)

    def _backoff(self, attempt: int) -> float:
        d = min(self.retry.max_delay, self.retry.base_delay * (2 ** (attempt - 1)))
        return d / 2 + self._rng.uniform(0, d / 2)

    def _delay_for(self, err: GitHubError, attempt: int) -> float | None:
        """Seconds to wait before retrying after `err`, or None if it must not be retried."""
        if isinstance(err, RateLimited):
            wait = err.retry_in(self.clock.local_now())
            if wait is None:
                if not err.secondary:
                    return None
                wait = max(self.retry.secondary_wait, self._backoff(attempt))
            return wait + self._rng.uniform(0, min(1.0, self.retry.base_delay))
        if isinstance(err, (ServerError, NetworkError)):
            return self._backoff(attempt)
        return None

    async def _request(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        ok: tuple[int, ...] = (),
        follow_redirects: bool = True,
    ) -> httpx.Response:
        """A read with retries. Returns 2xx responses and any status listed in `ok`."""
        attempt = 0
        slept = 0.0
        while True:
            attempt += 1
            err: GitHubError
            try:
                resp = await self._send_once(
                    method,
                    url,
                    params=params,
                    headers=headers,
                    follow_redirects=follow_redirects,
                )
            except NetworkError as exc:
                err = exc
            else:
                if 200 <= resp.status_code < 300 or resp.status_code in ok:
                    return resp
                err = self._error_for(resp, method, url)
            delay = self._delay_for(err, attempt)
            if (
                delay is None
                or attempt >= self.retry.max_attempts
                or slept + delay > self.retry.max_total
            ):
                raise err
            log.info(
                "retrying %s %s in %.1fs after %r (attempt %d)", method, url, delay, err, attempt
            )
            slept += delay
            await self._sleep(delay)

    async def _get_json(self, url: str, params: Mapping[str, Any] | None = None) -> Any:
        resp = await self._request("GET", url, params=params)
        try:
            return resp.json()
        except ValueError:
            raise GitHubError(
                resp.status_code, "the server's answer was not JSON", method="GET", path=url
            ) from None

    async def _send_json(self, method: str, url: str, body: Mapping[str, Any]) -> Any:
        """A write that may be sent again as it is: it creates an object named by its content
        (a git blob, tree or commit), so a repeat after an unclear failure makes the same object
        or a harmless unreferenced one. Retried like a read; a 2xx answer's JSON is returned."""
        attempt = 0
        slept = 0.0
        while True:
            attempt += 1
            err: GitHubError
            try:
                resp = await self._send_once(method, url, json=body)
            except NetworkError as exc:
                err = exc
            else:
                if 200 <= resp.status_code < 300:
                    try:
                        return resp.json()
                    except ValueError:
                        raise GitHubError(
                            resp.status_code, "the server's answer was not JSON", path=url
                        ) from None
                err = self._error_for(resp, method, url)
            delay = self._delay_for(err, attempt)
            if (
                delay is None
                or attempt >= self.retry.max_attempts
                or slept + delay > self.retry.max_total
            ):
                raise err
            log.info("sending %s %s again in %.1fs after %r", method, url, delay, err)
            slept += delay
            await self._sleep(delay)


def parse_token_expiration(value: str) -> float | None:
    """``GitHub-Authentication-Token-Expiration`` → epoch seconds. GitHub writes
    ``2021-10-07 19:07:53 UTC``; a numeric offset (``+0900``) is read too. None if unreadable."""
    from datetime import UTC, datetime

    text = value.strip()
    for fmt, tail in (("%Y-%m-%d %H:%M:%S", " UTC"), ("%Y-%m-%d %H:%M:%S %z", "")):
        try:
            if tail:
                if not text.endswith(tail):
                    continue
                moment = datetime.strptime(text[: -len(tail)], fmt).replace(tzinfo=UTC)
            else:
                moment = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return moment.timestamp()
    return None


def _is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    return host in ("localhost", "::1") or host.startswith("127.")


class _BearerAuth(httpx.Auth):
    def __init__(self, token: Secret) -> None:
        self._token = token

    def __repr__(self) -> str:
        return "_BearerAuth(***)"

    def auth_flow(self, request: httpx.Request) -> Any:
        if self._token.reveal():  # no token: an anonymous request, not an empty Bearer
            request.headers["Authorization"] = f"Bearer {self._token.reveal()}"
        yield request
