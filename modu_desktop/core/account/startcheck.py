"""The start-up check: is the last run's list still the branch's?

One plain ``GET git/trees/{branch}`` in a worker thread, started before Qt is even imported, so
the answer is usually in by the time the start window paints the last list: the list then shows
as fresh at once instead of "확인 중" for a round trip. Same tree sha = the same documents and the
same lock files, so the rows are current.

Stdlib only (``http.client``): the app's HTTP stack is imported later, and this runs while the
main thread imports Qt. The token is read here, in the worker, through
``TokenStore`` (``MODU_TOKEN``, then the OS keyring); it is sent to GitHub only, and neither the
token nor the answer is ever logged.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


def _loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


def tree_sha_now(api_url: str, repo: str, branch: str, token: str, timeout: float = 10.0) -> str:
    """The branch's tree sha, by one ``GET git/trees/{branch}``. Plain http only to loopback,
    like the app's client; https through the OS trust store."""
    import http.client
    import json
    from urllib.parse import quote, urlsplit

    url = urlsplit(api_url)
    host = url.hostname or ""
    if url.scheme != "https" and not (url.scheme == "http" and _loopback(host)):
        raise ValueError("refusing to send a token over plain http")
    owner, _, name = repo.partition("/")
    path = (
        f"{url.path.rstrip('/')}/repos/{quote(owner, safe='')}/{quote(name, safe='')}"
        f"/git/trees/{quote(branch, safe='')}"  # not recursive: the same sha, a small body
    )
    conn: http.client.HTTPConnection
    if url.scheme == "https":
        import ssl

        import truststore

        context = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        conn = http.client.HTTPSConnection(host, url.port, timeout=timeout, context=context)
    else:
        conn = http.client.HTTPConnection(host, url.port, timeout=timeout)
    try:
        conn.request(
            "GET",
            path,
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": "ModuDesktop (start-up check)",
            },
        )
        resp = conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            raise OSError(f"HTTP {resp.status}")
        return str(json.loads(body.decode("utf-8"))["sha"])
    finally:
        conn.close()


class StartCheck:
    """The branch's tree sha, asked once in a daemon thread. `answer` is None until it is in,
    then the sha, or "" when there was no answer (no token, offline, an error): the main
    window's own refresh decides then."""

    def __init__(self, api_url: str, repo: str, branch: str, account: str) -> None:
        self.api_url, self.repo, self.branch, self.account = api_url, repo, branch, account
        self._lock = threading.Lock()
        self._answer: str | None = None
        self._waiting: list[Callable[[str], None]] = []

    @property
    def answer(self) -> str | None:
        with self._lock:
            return self._answer

    def start(self) -> StartCheck:
        threading.Thread(target=self._work, name="modu-start-check", daemon=True).start()
        return self

    def when_answered(self, fn: Callable[[str], None]) -> None:
        """Call `fn(answer)`: now, in this thread, when the answer is in; else from the worker
        thread once it is (a Qt receiver gets it through a queued signal)."""
        with self._lock:
            answer = self._answer
            if answer is None:
                self._waiting.append(fn)
                return
        fn(answer)

    def _token(self) -> str:
        from modu_desktop.core.account.auth import TokenStore

        return TokenStore(self.account).load() or ""

    def _work(self) -> None:
        try:
            token = self._token()
            sha = tree_sha_now(self.api_url, self.repo, self.branch, token) if token else ""
        except Exception as exc:  # never the token or the answer's body in the log
            log.info("start-up check did not answer: %s", type(exc).__name__)
            sha = ""
        with self._lock:
            self._answer = sha
            waiting, self._waiting = self._waiting, []
        for fn in waiting:
            try:
                fn(sha)
            except RuntimeError:  # a Qt receiver deleted meanwhile
                log.debug("start-up check's receiver is gone")
