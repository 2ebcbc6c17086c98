"""HTTP plumbing: the threaded loopback server and its request handler.

The handler does I/O and network-level faults (latency, resets, hangs); everything GitHub-shaped
happens in `Sandbox.respond`.
"""

from __future__ import annotations

import contextlib
import email.utils
import json
import logging
import socket
import struct
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from modu_desktop.sandbox.api import Handler
from modu_desktop.sandbox.faults import FaultInjector, Faults, RateInfo
from modu_desktop.sandbox.http.router import Match
from modu_desktop.sandbox.http.routes import ROUTES
from modu_desktop.sandbox.practice import site
from modu_desktop.sandbox.practice.avatars import avatar_png
from modu_desktop.sandbox.rest import payloads as P
from modu_desktop.sandbox.rest.cors import cors_headers, preflight_headers
from modu_desktop.sandbox.rest.messages import ApiError, ApiRequest, ApiResponse

log = logging.getLogger("modu_desktop.sandbox")
AVATARS = "/_sandbox/avatars/"
MAX_BODY = 150 * 1024 * 1024  # a 100 MB file is ~134 MB as base64 JSON


class SandboxCore(Protocol):
    """What the HTTP layer needs from the sandbox (`server.Sandbox` provides it)."""

    owner: str
    name: str
    injector: FaultInjector

    @property
    def faults(self) -> Faults: ...

    def server_time(self) -> float: ...
    def sleep(self, seconds: float) -> bool: ...
    def count(self, method: str, template: str) -> None: ...
    def count_outcome(self, outcome: str) -> None: ...
    def stats(self) -> dict[str, Any]: ...
    def reset_stats(self) -> None: ...
    def lose_next_write(self, path: str, times: int = 1) -> None: ...
    def respond(
        self, request: ApiRequest, match: Match[Handler], faults: Faults
    ) -> ApiResponse: ...
    def add_headers(self, request: ApiRequest, response: ApiResponse, rate: RateInfo) -> None: ...
    def job_log_file(self, job_id: str) -> ApiResponse: ...


class LoopbackServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # benchmarks open many connections at once; 5 drops SYNs
    # On Windows SO_REUSEADDR would let a second server steal a fixed port.
    allow_reuse_address = sys.platform != "win32"

    def __init__(self, address: tuple[str, int], sandbox: SandboxCore) -> None:
        self.sandbox = sandbox
        self.open_sockets: set[socket.socket] = set()
        self.sockets_lock = threading.Lock()
        super().__init__(address, RequestHandler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.sockets_lock:
            self.open_sockets.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.sockets_lock:
            self.open_sockets.discard(request)
        super().shutdown_request(request)

    def close_open_connections(self) -> None:
        with self.sockets_lock:
            sockets = list(self.open_sockets)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like api.github.com
    server_version = "GitHub.com"
    sys_version = ""
    timeout = 120  # idle keep-alive connections are closed after this
    server: LoopbackServer

    def setup(self) -> None:
        super().setup()
        # Headers and body go out in separate writes; without this, Nagle + delayed ACK add
        # ~40 ms to every keep-alive response.
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def version_string(self) -> str:
        return "GitHub.com"

    def date_time_string(self, timestamp: float | None = None) -> str:
        # The Date header follows the sandbox clock, so the clock-offset fault shows up here.
        return email.utils.formatdate(self.server.sandbox.server_time(), usegmt=True)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def do_GET(self) -> None:
        self._dispatch()

    do_PUT = do_DELETE = do_POST = do_PATCH = do_HEAD = do_GET

    def do_OPTIONS(self) -> None:
        """A CORS preflight: 204 for any path, before authentication (browsers send no token)."""
        sandbox = self.server.sandbox
        url = urlsplit(self.path)
        if url.path.startswith("/_sandbox/"):
            self._meta(url.path)
            return
        wanted = (self.headers.get("Access-Control-Request-Method") or "GET").upper()
        match = ROUTES.match("GET" if wanted == "HEAD" else wanted, url.path)
        sandbox.count("OPTIONS", match.template)
        if self._read_body() is None:
            return
        faults = sandbox.injector.snapshot()
        if sandbox.sleep(faults.latency_ms / 1000):
            self._reset("stopping")
            return
        sandbox.count_outcome("204")
        self._send(ApiResponse(204, None, preflight_headers()))

    def _dispatch(self) -> None:
        sandbox = self.server.sandbox
        url = urlsplit(self.path)
        if url.path.startswith("/_sandbox/"):
            self._meta(url.path)
            return
        # HEAD is answered like GET without a body, as GitHub does.
        match = ROUTES.match("GET" if self.command == "HEAD" else self.command, url.path)
        sandbox.count(self.command, match.template)
        body = self._read_body()
        if body is None:
            return
        faults = sandbox.injector.snapshot()
        if sandbox.sleep(faults.latency_ms / 1000):
            self._reset("stopping")
            return
        failure = sandbox.injector.pick_failure(faults)
        if failure in ("reset", "timeout"):
            self._network_failure(failure, faults)
            return
        request = ApiRequest(
            self.command,
            url.path,
            parse_qs(url.query, keep_blank_values=True),
            {k.lower(): v for k, v in self.headers.items()},
            body,
        )
        if failure == "5xx":
            response = ApiError(502, "Server Error").response()
            sandbox.add_headers(
                request, response, sandbox.injector.rate_info("", faults, sandbox.server_time())
            )
        else:
            response = sandbox.respond(request, match, faults)
        if failure == "lost_response":
            self._reset("lost_response")  # the request took effect; the answer never arrives
            return
        sandbox.count_outcome(str(response.status))
        self._send(response)

    def _network_failure(self, failure: str, faults: Faults) -> None:
        if failure == "timeout":
            # Hang longer than any sane client timeout, but bounded so threads end.
            self.server.sandbox.sleep(faults.timeout_hang_seconds)
        self._reset(failure)

    def _reset(self, outcome: str) -> None:
        """Abort the connection with a TCP RST instead of an orderly close."""
        self.server.sandbox.count_outcome(outcome)
        self.close_connection = True
        with contextlib.suppress(OSError):
            # struct linger is two ints on POSIX, two u_shorts on Windows.
            linger = struct.pack("HH" if sys.platform == "win32" else "ii", 1, 0)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            self.connection.close()

    def _read_body(self) -> bytes | None:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return self._read_chunked()
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            self._send(ApiError(413, "Request body too large").response())
            self.close_connection = True
            return None
        return self.rfile.read(length) if length else b""

    def _read_chunked(self) -> bytes | None:
        chunks: list[bytes] = []
        total = 0
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                self.rfile.readline()
                return b"".join(chunks)
            total += size
            if total > MAX_BODY:
                self.close_connection = True
                self._send(ApiError(413, "Request body too large").response())
                return None
            chunks.append(self.rfile.read(size))
            self.rfile.readline()

    def _send(self, response: ApiResponse) -> None:
        data = response.encoded() if response.status not in (204, 304) else b""
        self.send_response(response.status)
        # Every answer, errors included, is readable from a browser page of any origin.
        headers = {**cors_headers(), **response.headers}
        for name, value in headers.items():
            self.send_header(name, value)
        if response.status not in (204, 304):
            self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD" and data:
            self.wfile.write(data)

    def _change_faults(self, body: bytes) -> None:
        """Practice and end-to-end tests change faults of a running sandbox (e.g. cut the
        network mid-save): a JSON object of `Faults` fields, applied all or nothing."""
        faults = self.server.sandbox.faults
        try:
            faults.apply_json(json.loads(body.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            self._send(ApiResponse(400, P.error_body(400, "Problems parsing JSON")))
            return
        except ValueError as exc:
            self._send(ApiResponse(422, P.error_body(422, str(exc))))
            return
        self._send(ApiResponse(200, faults.to_json()))

    def _lose_next_write(self, body: bytes) -> None:
        """`{"path": P, "times": N}`: the next N writes to P lose the race for the branch."""
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            self._send(ApiResponse(400, P.error_body(400, "Problems parsing JSON")))
            return
        path = data.get("path") if isinstance(data, dict) else None
        times = data.get("times", 1) if isinstance(data, dict) else None
        if (
            not isinstance(path, str)
            or not path
            or isinstance(times, bool)
            or not isinstance(times, int)
            or times < 0
        ):
            self._send(ApiResponse(422, P.error_body(422, 'Expected {"path": string, "times": n}')))
            return
        self.server.sandbox.lose_next_write(path, times)
        self._send(ApiResponse(204))

    def _meta(self, path: str) -> None:
        """/_sandbox/… : test hooks. Not counted in stats, no auth, no faults."""
        sandbox = self.server.sandbox
        body = self._read_body()
        if path == "/_sandbox/faults" and self.command == "GET":
            self._send(ApiResponse(200, sandbox.faults.to_json()))
        elif path == "/_sandbox/faults" and self.command in ("POST", "PATCH"):
            self._change_faults(body or b"{}")
        elif path == "/_sandbox/race" and self.command == "POST":
            self._lose_next_write(body or b"{}")
        elif path == "/_sandbox/stats" and self.command == "GET":
            self._send(ApiResponse(200, sandbox.stats()))
        elif path == "/_sandbox/stats/reset" and self.command == "POST":
            sandbox.reset_stats()
            self._send(ApiResponse(204))
        elif path.startswith(AVATARS) and self.command in ("GET", "HEAD"):
            # avatar_url targets (GitHub serves them from another host, uncounted): a PNG.
            png = avatar_png(path[len(AVATARS) :])
            headers = {"Cache-Control": "max-age=300"}
            self._send(ApiResponse(200, png, headers, content_type="image/png"))
        elif path.startswith(site.PREFIX) and self.command in ("GET", "HEAD"):
            # the practice site: "사이트에서 보기" in practice mode (sandbox/site.py)
            status, html = site.page(sandbox, path)
            self._send(ApiResponse(status, html, content_type="text/html; charset=utf-8"))
        elif path.startswith("/_sandbox/logs/") and self.command in ("GET", "HEAD"):
            # where a job's logs URL redirects (GitHub: a pre-signed file elsewhere)
            self._send(sandbox.job_log_file(path[len("/_sandbox/logs/") :]))
        elif path == "/_sandbox/health" and self.command == "GET":
            self._send(ApiResponse(200, {"ok": True, "repo": f"{sandbox.owner}/{sandbox.name}"}))
        else:
            self._send(ApiResponse(404, P.error_body(404, "Not Found")))
