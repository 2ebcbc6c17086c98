"""Typed errors of the GitHub client, each explainable to non-programmer staff in one sentence.

`GitHubError` is the base. `str(err)` is a developer-oriented text (never contains the token);
`err.user_message()` is one plain, friendly sentence for the UI in the current language
(``modu_desktop.i18n``); `err.user_text()` is the same sentence as a `Text`, to word later or in
another language (the CLI's JSON gives both).
"""

from __future__ import annotations

import time
from typing import Any

from modu_desktop.core.text import Text

__all__ = [
    "GitHubError",
    "BadCredentials",
    "PermissionDenied",
    "NotFound",
    "GitHubConflict",
    "ShaMissing",
    "RepositoryEmpty",
    "ValidationFailed",
    "RateLimited",
    "ServerError",
    "NetworkError",
    "WriteUncertain",
    "BranchMoved",
    "NotFastForward",
]


class GitHubError(Exception):
    """Base class: an HTTP error status (or None for transport problems) and GitHub's message."""

    def user_text(self) -> Text:
        return Text("The request to GitHub failed. Please try again in a moment.")

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

    def user_message(self) -> str:
        """One plain sentence for staff, in the current language."""
        return self.user_text()()


class BadCredentials(GitHubError):
    """401: the token is wrong, expired or revoked."""

    def user_text(self) -> Text:
        return Text("Your GitHub sign-in is invalid or has expired; please enter your token again.")


class PermissionDenied(GitHubError):
    """403 (not a rate limit): the account may read but not do this."""

    def user_text(self) -> Text:
        return Text(
            "You do not have permission to do this; ask the repository admin for write access."
        )


class NotFound(GitHubError):
    """404: missing, or private and not visible to this account (GitHub hides which)."""

    def user_text(self) -> Text:
        return Text("It could not be found; it was deleted or this account cannot see it.")


class GitHubConflict(GitHubError):
    """409 (or a 422 that means the same): someone else changed the file meanwhile.

    ``current_sha`` is the file's blob sha that the write rule read after the 409 (None: the
    file is gone), when ``current_known``; whoever shows the conflict starts from it instead of
    reading the file's place again."""

    current_sha: str | None = None
    current_known: bool = False

    def knowing_current(self, sha: str | None) -> GitHubConflict:
        """This conflict, with the file's current blob sha (None: deleted) as read after it."""
        self.current_sha = sha
        self.current_known = True
        return self

    def user_text(self) -> Text:
        return Text(
            "Someone else changed this file in the meantime; review the latest version "
            "and save again."
        )


class ShaMissing(GitHubConflict):
    """422 "sha wasn't supplied": we wrote as if the file were new but it already exists.

    A subclass of `GitHubConflict` (so `except GitHubConflict` catches it) whose `status` is 422.
    """

    def user_text(self) -> Text:
        return Text("A file with this name already exists; refresh the list and try again.")


class RepositoryEmpty(GitHubConflict):
    """409 "Git Repository is empty." on git-database reads of a repository without commits."""

    def user_text(self) -> Text:
        return Text("The repository is empty; create the first document to start.")


class ValidationFailed(GitHubError):
    """422: GitHub rejected the request's content (bad path, bad field...)."""

    def user_text(self) -> Text:
        return Text("GitHub did not accept the request; please check the file name and content.")

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

    def user_text(self) -> Text:
        wait = self.retry_in()
        if wait is None:
            return Text(
                "GitHub is limiting our requests for now; please try again in a few minutes."
            )
        return Text(
            "GitHub is limiting our requests for now; please try again in about {n} minute(s).",
            n=max(1, int((wait + 59) // 60)),
        )


class ServerError(GitHubError):
    """5xx: GitHub (or the server in front of it) failed."""

    def user_text(self) -> Text:
        return Text("GitHub is having a temporary problem; please try again shortly.")


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

    def user_text(self) -> Text:
        if self.kind == "timeout":
            return Text("GitHub is taking too long to answer; check your connection and try again.")
        return Text("Cannot reach GitHub; check your internet connection and try again.")


class WriteUncertain(GitHubError):
    """A PUT/DELETE got no clear answer and reading the file back did not settle it either.

    The change may or may not be on GitHub. `cause` is the original failure.
    """

    def __init__(self, message: str, *, cause: GitHubError | None = None, **kwargs: Any) -> None:
        super().__init__(None if cause is None else cause.status, message, **kwargs)
        self.cause = cause

    def user_text(self) -> Text:
        return Text(
            "We could not confirm whether the change was saved; refresh once the connection "
            "is back to check."
        )


class BranchMoved(GitHubError):
    """409 "is at X but expected Y", again and again: other commits kept moving the branch while
    GitHub was making ours, so nothing of ours was applied (the file is as we last saw it).

    Temporary, like a server hiccup: the same write may be sent again later. Never a conflict
    (the file did not change) and never a lost lock. ``tries``: how often it was sent."""

    def __init__(self, status: int | None, message: str, *, tries: int = 1, **kwargs: Any) -> None:
        super().__init__(status, message, **kwargs)
        self.tries = tries

    def user_text(self) -> Text:
        return Text(
            "GitHub was busy with other people's changes just then and did not take this one; "
            "nothing was changed. It can be tried again in a moment."
        )


class NotFastForward(ValidationFailed):
    """422 "Update is not a fast forward": a branch update (``update_ref`` without ``force``)
    whose commit does not descend from where the branch is now — another commit landed since
    the branch was read. Nothing was changed; the work may be built again on the new head."""

    def user_text(self) -> Text:
        return Text(
            "Someone else's change reached GitHub first, so this one was not made; nothing was "
            "changed. It can be made again on the newest version."
        )
