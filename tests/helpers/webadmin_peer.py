"""A peer that behaves exactly like the PNU-Modu web admin (``static/admin/index.html``), for
interoperability tests. It copies the web admin's weaknesses on purpose
(``docs/lock-protocol.md``, "The web admin's weaknesses we do not copy"):

* it reads the lock through the **Contents API** (which may serve a cached copy);
* it writes ``JSON.stringify(lock, null, 2)``: acquire order docId, editingBy, startedAt,
  lastHeartbeat; heartbeat order docId, editingBy, lastHeartbeat, startedAt (keeps startedAt,
  drops keys it does not know);
* timestamps are ``Math.floor(Date.now() / 1000)`` of its **own (possibly skewed) clock**, and
  staleness is judged with that clock;
* the same login **silently re-acquires** (two tabs both edit);
* it **re-reads before every heartbeat** and goes read-only when ``editingBy`` is someone else;
  a failed heartbeat is ignored silently;
* it lists with ``GET /git/trees/{branch}?recursive=1`` and reads documents by blob sha;
* save does not re-check the lock (the content sha still prevents a silent overwrite);
* release is best effort: re-read, and DELETE only if ``editingBy`` is still this login.

Transport: :class:`HttpWebAdminApi` talks raw REST with httpx (nothing from our client), and
:class:`ClientWebAdminApi` adapts any object with the ``GitHubClient`` contents/tree/blob methods
(e.g. the in-memory fake of the model test).
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote

import httpx

STALE_SECONDS = 900


class WebAdminError(Exception):
    def __init__(self, status: int | None, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class WebAdminApi(Protocol):
    async def read_contents(self, path: str) -> tuple[str, bytes] | None: ...

    async def list_tree(self) -> dict[str, str]: ...

    async def read_blob(self, sha: str) -> bytes: ...

    async def put(self, path: str, content: bytes, message: str, sha: str | None) -> str: ...

    async def delete(self, path: str, sha: str, message: str) -> None: ...

    async def aclose(self) -> None: ...


class HttpWebAdminApi:
    """The REST calls the web admin's ``fetch`` makes (no retries, no read-back)."""

    def __init__(self, api_url: str, token: str, owner: str, name: str, branch: str = "main"):
        self.branch = branch
        self._repo = f"/repos/{quote(owner, safe='')}/{quote(name, safe='')}"
        self._http = httpx.AsyncClient(
            base_url=api_url.rstrip("/"),
            headers={
                "Authorization": f"token {token}",
                "Accept": "application/vnd.github+json",
                "User-Agent": "Mozilla/5.0 (PNU-Modu Admin Studio)",
            },
            timeout=15.0,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> HttpWebAdminApi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _send(self, method: str, url: str, **kw: Any) -> httpx.Response:
        """``fetch``: a network failure rejects the promise (here: WebAdminError(None, …))."""
        try:
            return await self._http.request(method, url, **kw)
        except httpx.HTTPError as exc:
            raise WebAdminError(None, f"TypeError: Failed to fetch ({type(exc).__name__})") from exc

    def _contents(self, path: str) -> str:
        return f"{self._repo}/contents/{quote(path, safe='/')}"

    @staticmethod
    def _check(resp: httpx.Response) -> Any:
        if resp.status_code >= 300:
            try:
                msg = str(resp.json().get("message", ""))
            except ValueError:
                msg = resp.text[:200]
            raise WebAdminError(resp.status_code, msg)
        return resp.json() if resp.content else None

    async def read_contents(self, path: str) -> tuple[str, bytes] | None:
        resp = await self._send("GET", self._contents(path), params={"ref": self.branch})
        if resp.status_code == 404:
            return None
        d = self._check(resp)
        return str(d["sha"]), base64.b64decode(str(d.get("content", "")).replace("\n", ""))

    async def list_tree(self) -> dict[str, str]:
        resp = await self._send(
            "GET",
            f"{self._repo}/git/trees/{quote(self.branch, safe='')}",
            params={"recursive": "1"},
        )
        d = self._check(resp)
        return {e["path"]: e["sha"] for e in d.get("tree", []) if e.get("type") == "blob"}

    async def read_blob(self, sha: str) -> bytes:
        d = self._check(await self._send("GET", f"{self._repo}/git/blobs/{sha}"))
        return base64.b64decode(str(d.get("content", "")).replace("\n", ""))

    async def put(self, path: str, content: bytes, message: str, sha: str | None) -> str:
        body: dict[str, Any] = {
            "message": message,
            "content": base64.b64encode(content).decode("ascii"),
            "branch": self.branch,
        }
        if sha:
            body["sha"] = sha
        d = self._check(await self._send("PUT", self._contents(path), json=body))
        return str(d["content"]["sha"])

    async def delete(self, path: str, sha: str, message: str) -> None:
        body = {"message": message, "sha": sha, "branch": self.branch}
        self._check(await self._send("DELETE", self._contents(path), json=body))


class ClientWebAdminApi:
    """Adapter over a GitHubClient-like object (``get_contents``/``get_tree``/``get_blob``/
    ``put_file``/``delete_file``). Errors are turned into WebAdminError."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def aclose(self) -> None:
        """Nothing of its own to close: the client belongs to whoever made it."""

    async def read_contents(self, path: str) -> tuple[str, bytes] | None:
        try:
            f = await self.client.get_contents(path)
        except Exception as exc:
            if getattr(exc, "status", None) == 404:
                return None
            raise WebAdminError(getattr(exc, "status", None), str(exc)) from exc
        return str(f.sha), bytes(f.content)

    async def list_tree(self) -> dict[str, str]:
        try:
            tree = await self.client.get_tree(None, recursive=True)
        except Exception as exc:
            raise WebAdminError(getattr(exc, "status", None), str(exc)) from exc
        return {e.path: e.sha for e in tree.entries if e.type == "blob"}

    async def read_blob(self, sha: str) -> bytes:
        try:
            return bytes(await self.client.get_blob(sha))
        except Exception as exc:
            raise WebAdminError(getattr(exc, "status", None), str(exc)) from exc

    async def put(self, path: str, content: bytes, message: str, sha: str | None) -> str:
        try:
            res = await self.client.put_file(path, content, message, sha=sha)
        except Exception as exc:
            raise WebAdminError(getattr(exc, "status", None), str(exc)) from exc
        return str(res.content_sha)

    async def delete(self, path: str, sha: str, message: str) -> None:
        try:
            await self.client.delete_file(path, sha, message)
        except Exception as exc:
            raise WebAdminError(getattr(exc, "status", None), str(exc)) from exc


@dataclass
class OpenResult:
    outcome: str  # "acquired" | "reacquired" | "took_over" | "locked" | "error"
    holder: str | None = None
    error: str | None = None


def js_stringify(obj: dict[str, Any]) -> bytes:
    """``JSON.stringify(obj, null, 2)`` as UTF-8."""
    return json.dumps(obj, indent=2, ensure_ascii=False).encode("utf-8")


class WebAdminPeer:
    """One browser tab of the web admin, signed in as ``login``."""

    def __init__(
        self,
        api: WebAdminApi,
        login: str,
        *,
        local_time: Callable[[], float] = time.time,
        skew_s: float = 0.0,
    ) -> None:
        self.api = api
        self.login = login
        self.local_time = local_time
        self.skew_s = skew_s
        self.doc_id: str | None = None
        self.editing = False  # holds the lock as far as this tab knows
        self.read_only = True
        self.loaded_sha: str | None = None
        self.started_at: int | None = None

    # ``Math.floor(Date.now() / 1000)`` on this tab's clock.
    def now(self) -> int:
        return int(self.local_time() + self.skew_s)

    @staticmethod
    def lock_path(doc_id: str) -> str:
        return f".locks/{doc_id}.lock.json"

    async def _read_lock(self, doc_id: str) -> tuple[str | None, dict[str, Any] | None]:
        found = await self.api.read_contents(self.lock_path(doc_id))
        if found is None:
            return None, None
        sha, raw = found
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return sha, None  # unreadable: the web admin treats it as no lock (overwrites it)
        return sha, data if isinstance(data, dict) else None

    async def open(self, doc_id: str, *, force: bool = False) -> OpenResult:
        """Open for editing: read the lock (Contents API), ask if fresh and foreign (``force`` =
        the user chose "take over"), then PUT the acquire body with the seen sha."""
        try:
            sha, lock = await self._read_lock(doc_id)
        except WebAdminError as exc:
            return OpenResult("error", error=str(exc))
        now = self.now()
        outcome = "acquired"
        if lock is not None:
            holder = lock.get("editingBy")
            beat = lock.get("lastHeartbeat")
            fresh = isinstance(beat, int | float) and now - beat < STALE_SECONDS
            if holder == self.login:
                outcome = "reacquired"  # silently, even from another tab or machine
            elif fresh and not force:
                self.doc_id, self.editing, self.read_only = doc_id, False, True
                return OpenResult("locked", holder=str(holder))
            else:
                outcome = "took_over"
        body = js_stringify(
            {"docId": doc_id, "editingBy": self.login, "startedAt": now, "lastHeartbeat": now}
        )
        try:
            await self.api.put(
                self.lock_path(doc_id),
                body,
                f"system: acquire lock for {doc_id} by @{self.login} [skip ci]",
                sha,
            )
        except WebAdminError as exc:
            return OpenResult("error", error=str(exc))
        self.doc_id, self.editing, self.read_only, self.started_at = doc_id, True, False, now
        try:
            await self.load()
        except WebAdminError as exc:
            return OpenResult("error", error=str(exc))
        return OpenResult(outcome, holder=self.login)

    async def load(self) -> None:
        assert self.doc_id is not None
        tree = await self.api.list_tree()
        sha = tree.get(f"docs/{self.doc_id}.md")
        self.loaded_sha = sha
        if sha is not None:
            await self.api.read_blob(sha)  # the editor's text, read as the admin page reads it

    async def heartbeat(self) -> str:
        """Re-read the lock; if it is not ours any more go read-only, else rewrite it with the
        read sha. Returns "ok", "lost" or "error" (the real page ignores errors)."""
        if not self.editing or self.doc_id is None:
            return "idle"
        doc_id = self.doc_id
        try:
            sha, lock = await self._read_lock(doc_id)
        except WebAdminError:
            return "error"
        if lock is None or lock.get("editingBy") != self.login:
            self.editing, self.read_only = False, True
            return "lost"
        body = js_stringify(
            {
                "docId": doc_id,
                "editingBy": self.login,
                "lastHeartbeat": self.now(),
                "startedAt": lock.get("startedAt"),
            }
        )
        try:
            await self.api.put(
                self.lock_path(doc_id), body, f"system: heartbeat for {doc_id} [skip ci]", sha
            )
        except WebAdminError:
            return "error"
        return "ok"

    async def save(self, text: bytes) -> str:
        """PUT the document with the sha it was loaded at. No lock check (its weakness)."""
        if self.doc_id is None or self.read_only:
            return "read_only"
        file = f"{self.doc_id}.md"
        try:
            new_sha = await self.api.put(
                f"docs/{file}", text, f"docs(edit): update {file} by @{self.login}", self.loaded_sha
            )
        except WebAdminError as exc:
            return "conflict" if exc.status in (409, 422) else "error"
        self.loaded_sha = new_sha
        return "saved"

    async def close(self) -> str:
        """``beforeunload``: best-effort release, only if the lock still names this login."""
        doc_id, self.doc_id = self.doc_id, None
        was_editing, self.editing, self.read_only = self.editing, False, True
        if doc_id is None or not was_editing:
            return "idle"
        try:
            sha, lock = await self._read_lock(doc_id)
            if sha is None or lock is None or lock.get("editingBy") != self.login:
                return "not_ours"
            await self.api.delete(
                self.lock_path(doc_id), sha, f"system: release lock for {doc_id} [skip ci]"
            )
        except WebAdminError:
            return "error"
        return "released"

    def crash(self) -> None:
        """The tab dies: nothing is released."""
        self.doc_id, self.editing, self.read_only = None, False, True
