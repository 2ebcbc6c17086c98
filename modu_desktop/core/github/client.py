"""`GitHubClient`: the async REST client (httpx) for the PNU-Modu repository.

- Works against github.com, GitHub Enterprise (`https://HOST/api/v3`) and the loopback sandbox.
- Built in floors, each a module: the HTTP exchange, typed errors and retries (`http.py`),
  plain reads (`reads.py`), the git database read and written (`gitdata.py`), and the Contents
  API writes with the branch-race rule (`contents.py`, `writes.py`).
- Typed errors (`modu_desktop.core.github.errors`, re-exported here) with `.user_message()`.

Loop affinity: an instance owns an `httpx.AsyncClient`, which is bound to the event loop that
first uses it. Create one client per event loop (e.g. per `asyncio.run`).
"""

from __future__ import annotations

from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.clock import ServerClock
from modu_desktop.core.github.contents import ContentsWrites
from modu_desktop.core.github.errors import (
    BadCredentials,
    BranchMoved,
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
    WriteUncertain,
)
from modu_desktop.core.github.gitdata import GitData
from modu_desktop.core.github.http import API_VERSION, DEFAULT_API_URL, parse_token_expiration
from modu_desktop.core.github.reads import Reads
from modu_desktop.core.github.types import (
    Commit,
    ContentFile,
    MembershipProbe,
    NewTreeEntry,
    RepoInfo,
    RepoRef,
    RetryPolicy,
    Secret,
    Tree,
    TreeEntry,
    User,
    WorkflowRun,
    WriteResult,
    encode_path,
)

__all__ = [
    "API_VERSION",
    "DEFAULT_API_URL",
    "BadCredentials",
    "BranchMoved",
    "Commit",
    "GitHubConflict",
    "ContentFile",
    "GitHubClient",
    "GitHubError",
    "MembershipProbe",
    "NewTreeEntry",
    "NotFastForward",
    "NetworkError",
    "NotFound",
    "PermissionDenied",
    "RateLimited",
    "RepoInfo",
    "RepoRef",
    "RepositoryEmpty",
    "RetryPolicy",
    "Secret",
    "ServerClock",
    "ServerError",
    "ShaMissing",
    "Tree",
    "TreeEntry",
    "User",
    "ValidationFailed",
    "WorkflowRun",
    "WriteResult",
    "WriteUncertain",
    "encode_path",
    "git_blob_sha",
    "parse_token_expiration",
]


class GitHubClient(ContentsWrites, GitData, Reads):
    """Async client for one repository. Use `async with GitHubClient(...) as gh:` or `aclose()`.

    ``GitHubClient(api_url, token, repo, *, user_agent=…, timeout=20.0, transport=None,
    clock=None, retry=None, sleep=None, rng=None, allow_insecure_http=False, race=None)``."""
