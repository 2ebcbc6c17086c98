"""Sandbox accounts: a login, its token, and whether it may push."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class SandboxUser:
    login: str
    token: str
    push: bool = True
    name: str | None = None
    email: str | None = None
    orgs: tuple[str, ...] = ()
    # X-OAuth-Scopes of the token (a classic token); None: no header (a fine-grained token).
    # Without read:org (or write:org/admin:org) the org's private memberships are invisible.
    scopes: tuple[str, ...] | None = ("repo", "workflow", "read:org")
    # A fine-grained token made without "Actions: read": the workflow runs answer 403.
    actions_read: bool = True
    # When the token stops working (epoch seconds): sent as GitHub does, in the
    # `GitHub-Authentication-Token-Expiration` header of every answer to it. None: no expiry.
    expires_at: float | None = None

    @property
    def sees_org_members(self) -> bool:
        return self.scopes is None or bool(
            {"read:org", "write:org", "admin:org"} & set(self.scopes)
        )

    @property
    def id(self) -> int:
        """Stable across restarts, so clients may cache it like a GitHub user id."""
        return stable_id("user", self.login.lower())

    @property
    def commit_name(self) -> str:
        return self.name or self.login

    @property
    def commit_email(self) -> str:
        # GitHub's default for users who keep their address private.
        return self.email or f"{self.id}+{self.login}@users.noreply.github.com"


PRACTICE_USER = SandboxUser("practice", "practice-token", push=True)


def stable_id(kind: str, key: str) -> int:
    digest = hashlib.sha256(f"{kind}:{key}".encode()).digest()
    return 10_000_000 + int.from_bytes(digest[:4], "big") % 90_000_000


def parse_user_spec(spec: str) -> SandboxUser:
    """The CLI's --user value: `LOGIN:TOKEN`, `LOGIN:TOKEN:ro` (read-only) or
    `LOGIN:TOKEN:rw:ORG1,ORG2` (with organisation memberships)."""
    parts = spec.split(":")
    if not 2 <= len(parts) <= 4 or not parts[0] or not parts[1]:
        raise ValueError(f"--user expects LOGIN:TOKEN[:ro|rw[:ORG,…]], got {spec!r}")
    access = parts[2] if len(parts) > 2 else "rw"
    if access not in ("ro", "rw"):
        raise ValueError(f"--user access must be 'ro' or 'rw', got {access!r}")
    orgs = tuple(o for o in parts[3].split(",") if o) if len(parts) > 3 else ()
    return SandboxUser(parts[0], parts[1], push=access == "rw", orgs=orgs)
