"""Typed errors of the GitHub client, each explainable to non-programmer staff in one sentence.

`GitHubError` is the base. `str(err)` is a developer-oriented text (never contains the token);
`err.user_message("ko" | "en")` is one plain, friendly sentence for the UI.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

__all__ = [
    "GitHubError",
    "BadCredentials",
    "PermissionDenied",
    "NotFound",
    "Conflict",
    "ShaMissing",
    "RepositoryEmpty",
    "ValidationFailed",
    "RateLimited",
    "ServerError",
    "NetworkError",
    "WriteUncertain",
]


class GitHubError(Exception):
    """Base class: an HTTP error status (or None for transport problems) and GitHub's message."""

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "GitHub 요청이 실패했습니다. 잠시 후 다시 시도해 주세요.",
        "en": "The request to GitHub failed. Please try again in a moment.",
    }

    def __init__(
        self,
        status: int | None,
        message: str,
        *,
        request_id: str | None = None,
        method: str | None = None,
        path: str | None = None,
        body: Any = None,
    ) -> None:
        self.status = status
        self.message = message
        self.request_id = request_id
        self.method = method
        self.path = path
        self.body = body
        super().__init__(status, message)

    def __str__(self) -> str:
        where = f" ({self.method} {self.path})" if self.method and self.path else ""
        code = f"HTTP {self.status}" if self.status is not None else type(self).__name__
        return f"{code}: {self.message}{where}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, message={self.message!r})"

    def user_message(self, lang: str = "ko") -> str:
        """One plain sentence for staff, Korean (default) or English."""
        return self._MESSAGES.get(lang, self._MESSAGES["en"])


class BadCredentials(GitHubError):
    """401: the token is wrong, expired or revoked."""

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "GitHub 로그인 정보가 올바르지 않거나 만료되었습니다. 토큰을 다시 입력해 주세요.",
        "en": "Your GitHub sign-in is invalid or has expired; please enter your token again.",
    }


class PermissionDenied(GitHubError):
    """403 (not a rate limit): the account may read but not do this."""

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "이 작업을 할 권한이 없습니다. 저장소 관리자에게 쓰기 권한을 요청해 주세요.",
        "en": "You do not have permission to do this; ask the repository admin for write access.",
    }


class NotFound(GitHubError):
    """404: missing, or private and not visible to this account (GitHub hides which)."""

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "찾을 수 없습니다. 이미 삭제되었거나 이 계정으로는 볼 수 없는 항목입니다.",
        "en": "It could not be found; it was deleted or this account cannot see it.",
    }


class Conflict(GitHubError):
    """409 (or a 422 that means the same): someone else changed the file meanwhile."""

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "그 사이에 다른 사람이 이 파일을 바꿨습니다. "
        "최신 내용을 확인한 뒤 다시 저장해 주세요.",
        "en": "Someone else changed this file in the meantime; review the latest version "
        "and save again.",
    }


class ShaMissing(Conflict):
    """422 "sha wasn't supplied": we wrote as if the file were new but it already exists.

    A subclass of `Conflict` (so `except Conflict` catches it) whose `status` is 422.
    """

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "같은 이름의 파일이 이미 있습니다. 목록을 새로 고친 뒤 다시 시도해 주세요.",
        "en": "A file with this name already exists; refresh the list and try again.",
    }


class RepositoryEmpty(Conflict):
    """409 "Git Repository is empty." on git-database reads of a repository without commits."""

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "저장소가 비어 있습니다. 첫 문서를 만들면 사용할 수 있습니다.",
        "en": "The repository is empty; create the first document to start.",
    }


class ValidationFailed(GitHubError):
    """422: GitHub rejected the request's content (bad path, bad field...)."""

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "GitHub이 요청 내용을 받아들이지 않았습니다. 파일 이름과 내용을 확인해 주세요.",
        "en": "GitHub did not accept the request; please check the file name and content.",
    }

    @property
    def errors(self) -> list[Any]:
        if isinstance(self.body, dict) and isinstance(self.body.get("errors"), list):
            return list(self.body["errors"])
        return []


class RateLimited(GitHubError):
    """403/429 rate limit. `retry_at` is a *local* Unix time (time.time() base) or None.

    `secondary` is True for GitHub's secondary (abuse) limits, False for the hourly quota.
    """

    def __init__(
        self,
        status: int | None,
        message: str,
        *,
        retry_at: float | None = None,
        secondary: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(status, message, **kwargs)
        self.retry_at = retry_at
        self.secondary = secondary

    def __repr__(self) -> str:
        return (
            f"RateLimited(status={self.status!r}, retry_at={self.retry_at!r}, "
            f"secondary={self.secondary!r})"
        )

    def retry_in(self, now: float | None = None) -> float | None:
        """Seconds until a retry is allowed (None when unknown)."""
        if self.retry_at is None:
            return None
        return max(0.0, self.retry_at - (time.time() if now is None else now))

    def user_message(self, lang: str = "ko") -> str:
        wait = self.retry_in()
        minutes = None if wait is None else max(1, int((wait + 59) // 60))
        if lang == "ko":
            if minutes is None:
                return "GitHub 요청이 너무 많아 잠시 막혔습니다. 몇 분 뒤 다시 시도해 주세요."
            return f"GitHub 요청이 너무 많아 잠시 막혔습니다. 약 {minutes}분 뒤 다시 시도해 주세요."
        if minutes is None:
            return "GitHub is limiting our requests for now; please try again in a few minutes."
        unit = "minute" if minutes == 1 else "minutes"
        return (
            f"GitHub is limiting our requests for now; please try again in about {minutes} {unit}."
        )


class ServerError(GitHubError):
    """5xx: GitHub (or the server in front of it) failed."""

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "GitHub 서버에 일시적인 문제가 있습니다. 잠시 후 다시 시도해 주세요.",
        "en": "GitHub is having a temporary problem; please try again shortly.",
    }


class NetworkError(GitHubError):
    """No HTTP answer: timeout, refused or reset connection, DNS, TLS.

    `kind` is "timeout" or "connection". `sent` is False only when the request provably never
    left this machine (connect failed), which makes a write safe to repeat.
    """

    def __init__(
        self, message: str, *, kind: str = "connection", sent: bool = True, **kwargs: Any
    ) -> None:
        super().__init__(None, message, **kwargs)
        self.kind = kind
        self.sent = sent

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "GitHub에 연결할 수 없습니다. 인터넷 연결을 확인한 뒤 다시 시도해 주세요.",
        "en": "Cannot reach GitHub; check your internet connection and try again.",
    }

    def user_message(self, lang: str = "ko") -> str:
        if self.kind == "timeout":
            if lang == "ko":
                return "GitHub 응답이 너무 늦습니다. 인터넷 연결을 확인한 뒤 다시 시도해 주세요."
            return "GitHub is taking too long to answer; check your connection and try again."
        return super().user_message(lang)


class WriteUncertain(GitHubError):
    """A PUT/DELETE got no clear answer and reading the file back did not settle it either.

    The change may or may not be on GitHub. `cause` is the original failure.
    """

    def __init__(self, message: str, *, cause: GitHubError | None = None, **kwargs: Any) -> None:
        super().__init__(None if cause is None else cause.status, message, **kwargs)
        self.cause = cause

    _MESSAGES: ClassVar[dict[str, str]] = {
        "ko": "저장이 되었는지 확인하지 못했습니다. "
        "연결이 돌아오면 목록을 새로 고쳐 확인해 주세요.",
        "en": "We could not confirm whether the change was saved; refresh once the connection "
        "is back to check.",
    }
