"""Optional "require membership of organisation X" check at sign-in (Qt-free).

``GET /orgs/{org}/members/{login}`` answers (docs/github-behaviour.md):

* **204** – the requester can see the org's members and ``login`` is one: ``MEMBER``;
* **404** – the requester is a member and ``login`` is not (or the org does not exist):
  ``NOT_MEMBER``;
* **302** – the requester is *not* a member as far as GitHub lets this token tell: for a
  classic/OAuth token whose ``X-OAuth-Scopes`` lacks ``read:org`` (or ``write:org``/
  ``admin:org``) the private membership is invisible, so this is ``NO_SCOPE`` ("sign in again
  with read:org"); with the scope (or a fine-grained token, which has no scopes header) it is
  ``NOT_MEMBER``;
* **403** (not a rate limit; e.g. SAML SSO not authorised for this token) – ``NO_SCOPE``;
* anything else (401, network, 5xx, rate limit) – ``ERROR`` with the client error's message.

The redirect is never followed: the public-members check it points to cannot confirm a private
membership and would turn "member" into "not a member".

The request goes through ``GitHubClient.org_membership_probe`` (status code + scopes header); the
meaning of the answer is decided here only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from modu_desktop.core.github.errors import GitHubError, PermissionDenied, RateLimited
from modu_desktop.core.text import Text

__all__ = ["MembershipStatus", "OrgCheck", "check_org_membership"]

_ORG_SCOPES = {"read:org", "write:org", "admin:org"}


class MembershipStatus(enum.Enum):
    MEMBER = "member"
    NOT_MEMBER = "not_member"
    NO_SCOPE = "no_scope"
    ERROR = "error"


@dataclass(frozen=True)
class OrgCheck:
    status: MembershipStatus
    text: Text
    org: str
    login: str
    http_status: int | None = None
    scopes: tuple[str, ...] | None = None  # X-OAuth-Scopes (None: header absent)
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.status is MembershipStatus.MEMBER

    @property
    def message(self) -> str:
        return self.text.en

    def user_message(self) -> str:
        """The sentence in the current language."""
        return self.text()


def _messages(status: MembershipStatus, org: str, login: str) -> Text:
    if status is MembershipStatus.MEMBER:
        return Text("@{login} is a member of {org}.", login=login, org=org)
    if status is MembershipStatus.NOT_MEMBER:
        return Text(
            "@{login} is not a member of the {org} organisation, so this app "
            "cannot be used with this account. Ask an owner of {org} to "
            "invite you.",
            login=login,
            org=org,
        )
    if status is MembershipStatus.NO_SCOPE:
        return Text(
            "This token cannot check membership of {org}: it needs the "
            "'read:org' permission (or SSO authorisation for the "
            "organisation). Create a token with read:org and sign in again.",
            org=org,
        )
    return Text("Could not check membership of {org}.", org=org)


async def check_org_membership(client: Any, org: str, login: str) -> OrgCheck:
    """MEMBER / NOT_MEMBER / NO_SCOPE / ERROR for ``login`` in ``org``. Never raises for HTTP
    or network failures."""
    status: MembershipStatus
    try:
        probe = await client.org_membership_probe(org, login)
    except RateLimited as exc:
        return _error(org, login, exc)
    except PermissionDenied as exc:
        status = MembershipStatus.NO_SCOPE
        return OrgCheck(status, _messages(status, org, login), org, login, exc.status, error=exc)
    except GitHubError as exc:
        return _error(org, login, exc)
    scopes = probe.scopes
    code = int(probe.status)
    if code == 204 or code == 200:
        status = MembershipStatus.MEMBER
    elif code == 404:
        status = MembershipStatus.NOT_MEMBER
    elif code in (301, 302, 307):
        if scopes is not None and not (_ORG_SCOPES & set(scopes)):
            status = MembershipStatus.NO_SCOPE
        else:
            status = MembershipStatus.NOT_MEMBER
    else:  # pragma: no cover - any other 2xx
        status = MembershipStatus.ERROR
    return OrgCheck(status, _messages(status, org, login), org, login, code, scopes)


def _error(org: str, login: str, exc: GitHubError) -> OrgCheck:
    base = _messages(MembershipStatus.ERROR, org, login)
    text = Text("{base} {error}", base=base, error=exc)
    return OrgCheck(MembershipStatus.ERROR, text, org, login, exc.status, error=exc)
