"""When to warn that the token is about to stop working.

GitHub sends ``GitHub-Authentication-Token-Expiration`` with every answer to a token that
expires (``GitHubClient.token_expires_at``). A week before that moment the app says so once a
day, with the steps to make a new token; after it, sign-in fails with "Bad credentials" and the
sign-in screen takes over.
"""

from __future__ import annotations

from dataclasses import dataclass

WARN_BEFORE_S = 7 * 24 * 3600


@dataclass(frozen=True)
class ExpiryWarning:
    expires_at: float
    days_left: int  # whole days left: 0 = less than a day


def expiry_warning(
    expires_at: float | None, now: float, *, before_s: float = WARN_BEFORE_S
) -> ExpiryWarning | None:
    """A warning when the token expires within ``before_s`` (and has not yet); else None."""
    if expires_at is None or expires_at <= now or expires_at - now > before_s:
        return None
    return ExpiryWarning(expires_at, int((expires_at - now) // 86400))
