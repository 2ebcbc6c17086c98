"""A reference client that makes exactly the requests of the PNU-Modu web admin
(``static/admin/index.html``), as described in ``docs/lock-protocol.md``.
Raw REST over httpx; nothing from ``modu_desktop.core``.

Request pattern (every arrow is a full round trip, nothing is cached between actions):

* list:       ``GET git/trees/main?recursive=1`` → ``GET git/blobs/{sha}`` per document.
  The blobs go out together (``Promise.all``) but a browser opens at most
  ``concurrency`` = 6 HTTP/1.1 connections per host, so at most 6 are in flight.
* open:       ``GET contents/.locks/{id}.lock.json`` (Contents API: may be stale) →
  ``PUT`` the lock → ``GET git/blobs/{sha}`` of the document (sha from the list).
* contended:  ``GET contents/.locks/…`` → a fresh foreign lock → the dialog.
* heartbeat:  ``GET contents/.locks/…`` (is it still mine?) → ``PUT`` with the keys in the
  order docId, editingBy, lastHeartbeat, startedAt.
* save:       ``PUT contents/docs/…`` with the sha it loaded (no lock re-check).
* close:      ``GET contents/.locks/…`` → ``DELETE`` if ``editingBy`` is still the user.

Assumptions the protocol notes do not settle: 6 connections (Chrome's HTTP/1.1 limit; the
sandbox speaks HTTP/1.1), the document read on open is by blob sha from the list, and the close
re-reads the lock before deleting (as ``tests/core/locks/webadmin_peer.py`` models it). No
browser HTTP cache is modelled (see docs/performance.md).
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from bench.transport import CountingTransport

STALE_SECONDS = 900
DOCS_PREFIX = "docs/"


class WebAdminError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status


@dataclass
class WebLock:
    doc_id: str
    sha: str
    started_at: int


@dataclass
class WebDoc:
    doc_id: str
    path: str
    sha: str
    text: str
    lock: WebLock | None = None  # None: read only (someone else holds it)


@dataclass
class WebListing:
    docs: dict[str, str] = field(default_factory=dict)  # path -> blob sha
    texts: dict[str, bytes] = field(default_factory=dict)


def lock_path(doc_id: str) -> str:
    return f".locks/{doc_id}.lock.json"


def lock_body(doc_id: str, login: str, started: int, beat: int, *, heartbeat: bool) -> bytes:
    if heartbeat:
        d: dict[str, Any] = {
            "docId": doc_id,
            "editingBy": login,
            "lastHeartbeat": beat,
            "startedAt": started,
        }
    else:
        d = {"docId": doc_id, "editingBy": login, "startedAt": started, "lastHeartbeat": beat}
    return json.dumps(d, indent=2, ensure_ascii=False).encode("utf-8")


class WebAdminClient:
    """The web admin's requests. ``concurrency`` bounds the blob fetches of a list."""

    def __init__(
        self,
        api_url: str,
        token: str,
        login: str,
        owner: str,
        name: str,
        branch: str = "main",
        *,
        concurrency: int = 6,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.login = login
        self.branch = branch
        self.concurrency = max(1, concurrency)
        self._repo = f"/repos/{quote(owner, safe='')}/{quote(name, safe='')}"
        self.transport = transport or CountingTransport(
            httpx.Limits(
                max_connections=self.concurrency, max_keepalive_connections=self.concurrency
            )
        )
        self._http = httpx.AsyncClient(
            base_url=api_url.rstrip("/"),
            headers={
                "Authorization": f"token {token}",
                "Accept": "application/vnd.github+json",
                "User-Agent": "Mozilla/5.0 (PNU-Modu Admin Studio)",
            },
            timeout=60.0,
            transport=self.transport,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    # -- raw requests ----------------------------------------------------------------------

    @staticmethod
    def _json(resp: httpx.Response) -> Any:
        if resp.status_code >= 300:
            try:
                msg = str(resp.json().get("message", ""))
            except ValueError:
                msg = resp.text[:200]
            raise WebAdminError(resp.status_code, msg)
        return resp.json() if resp.content else None

    def _contents(self, path: str) -> str:
        return f"{self._repo}/contents/{quote(path, safe='/')}"

    async def read_contents(self, path: str) -> tuple[str, bytes] | None:
        resp = await self._http.get(self._contents(path), params={"ref": self.branch})
        if resp.status_code == 404:
            return None
        d = self._json(resp)
        return str(d["sha"]), base64.b64decode(str(d.get("content", "")).replace("\n", ""))

    async def read_blob(self, sha: str) -> bytes:
        d = self._json(await self._http.get(f"{self._repo}/git/blobs/{sha}"))
        return base64.b64decode(str(d.get("content", "")).replace("\n", ""))

    async def put(self, path: str, content: bytes, message: str, sha: str | None) -> str:
        body: dict[str, Any] = {
            "message": message,
            "content": base64.b64encode(content).decode("ascii"),
            "branch": self.branch,
        }
        if sha:
            body["sha"] = sha
        d = self._json(await self._http.put(self._contents(path), json=body))
        return str(d["content"]["sha"])

    async def delete(self, path: str, sha: str, message: str) -> None:
        body = {"message": message, "sha": sha, "branch": self.branch}
        self._json(await self._http.request("DELETE", self._contents(path), json=body))

    # -- actions ---------------------------------------------------------------------------

    async def list_docs(self, *, blobs: bool = True) -> WebListing:
        """The list. ``blobs=False`` only reads the tree (bench set-up, not a web admin action)."""
        d = self._json(
            await self._http.get(
                f"{self._repo}/git/trees/{quote(self.branch, safe='')}", params={"recursive": "1"}
            )
        )
        out = WebListing()
        for e in d.get("tree", []):
            p = str(e.get("path", ""))
            if e.get("type") == "blob" and p.startswith(DOCS_PREFIX) and p.endswith(".md"):
                out.docs[p] = str(e["sha"])
        if not blobs:
            return out
        sem = asyncio.Semaphore(self.concurrency)

        async def one(path: str, sha: str) -> None:
            async with sem:
                out.texts[path] = await self.read_blob(sha)

        await asyncio.gather(*(one(p, s) for p, s in out.docs.items()))
        return out

    def _parse(self, raw: bytes) -> dict[str, Any]:
        try:
            d = json.loads(raw.decode("utf-8-sig"))
        except ValueError:
            return {}
        return d if isinstance(d, dict) else {}

    async def open_doc(self, doc_id: str, listing: WebListing) -> WebDoc:
        """Lock read → (free/stale/mine) lock write → content read. A fresh foreign lock stops
        before any write: the document comes back without a lock (read only)."""
        path = f"{DOCS_PREFIX}{doc_id}.md"
        seen = await self.read_contents(lock_path(doc_id))
        now = int(time.time())
        sha: str | None = None
        if seen is not None:
            sha, raw = seen
            d = self._parse(raw)
            holder = d.get("editingBy")
            beat = d.get("lastHeartbeat") or 0
            fresh = isinstance(beat, int) and now - beat < STALE_SECONDS
            if holder and holder != self.login and fresh:
                return WebDoc(doc_id, path, listing.docs.get(path, ""), "")
        body = lock_body(doc_id, self.login, now, now, heartbeat=False)
        new_sha = await self.put(
            lock_path(doc_id),
            body,
            f"system: acquire lock for {doc_id} by @{self.login} [skip ci]",
            sha,
        )
        blob_sha = listing.docs[path]
        text = (await self.read_blob(blob_sha)).decode("utf-8")
        return WebDoc(doc_id, path, blob_sha, text, WebLock(doc_id, new_sha, now))

    async def check_lock(self, doc_id: str) -> str | None:
        """The contended open up to the dialog: one Contents API read. The holder or None."""
        seen = await self.read_contents(lock_path(doc_id))
        if seen is None:
            return None
        d = self._parse(seen[1])
        holder = d.get("editingBy")
        return str(holder) if holder and holder != self.login else None

    async def heartbeat(self, doc: WebDoc) -> bool:
        assert doc.lock is not None
        seen = await self.read_contents(lock_path(doc.doc_id))
        if seen is None or self._parse(seen[1]).get("editingBy") != self.login:
            return False
        now = int(time.time())
        body = lock_body(doc.doc_id, self.login, doc.lock.started_at, now, heartbeat=True)
        doc.lock.sha = await self.put(
            lock_path(doc.doc_id), body, f"system: heartbeat for {doc.doc_id} [skip ci]", seen[0]
        )
        return True

    async def save(self, doc: WebDoc, text: str) -> None:
        name = doc.path.rsplit("/", 1)[-1]
        doc.sha = await self.put(
            doc.path, text.encode("utf-8"), f"docs(edit): update {name} by @{self.login}", doc.sha
        )
        doc.text = text

    async def close(self, doc: WebDoc) -> None:
        if doc.lock is None:
            return
        seen = await self.read_contents(lock_path(doc.doc_id))
        if seen is not None and self._parse(seen[1]).get("editingBy") == self.login:
            await self.delete(
                lock_path(doc.doc_id), seen[0], f"system: release lock for {doc.doc_id} [skip ci]"
            )
        doc.lock = None
