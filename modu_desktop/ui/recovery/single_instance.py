"""One running instance per user and data directory (``QLocalServer``/``QLocalSocket`` over
:mod:`modu_desktop.core.account.instance`).

Start-up::

    inst = SingleInstance(paths.data_dir)
    if not inst.acquire():                       # another instance owns this data dir
        ok = inst.forward("open", doc_id=args.open_doc)   # or forward("activate")
        return 0 if ok else 1                    # the first instance handles it
    inst.listen()
    inst.openRequested.connect(lambda doc: ...)  # bring that document's window to the front
    inst.activateRequested.connect(...)

The lock is an OS file lock (``flock``), dropped by the OS when the process dies, so a crashed
instance never blocks the next start. Every request handled is appended to
``{data_dir}/instance.log`` (one line, e.g. ``open 01-welcome``): support staff and the
end-to-end tests can see that the first instance got it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from modu_desktop.core.account.instance import (
    MAX_REQUEST_BYTES,
    InstanceLock,
    decode_request,
    encode_request,
    server_name,
)

log = logging.getLogger(__name__)

APP_ID = "modu-desktop"
LOCK_NAME = "instance.lock"
LOG_NAME = "instance.log"
ACK = b"ok\n"


class SingleInstance(QObject):
    """Signals (first instance): ``openRequested(str)`` with a docId, ``activateRequested()``,
    ``requestReceived(dict)`` for any valid request."""

    openRequested = Signal(str)
    activateRequested = Signal()
    requestReceived = Signal(object)

    def __init__(
        self, data_dir: str | Path, *, app_id: str = APP_ID, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.data_dir = Path(data_dir)
        self.name = server_name(app_id, self.data_dir)
        self.lock = InstanceLock(self.data_dir / LOCK_NAME)
        self.log_path = self.data_dir / LOG_NAME
        self.server: QLocalServer | None = None
        self._buffers: dict[QLocalSocket, bytearray] = {}

    # -- first instance ------------------------------------------------------------------------

    def acquire(self) -> bool:
        """True if this process is the (only) instance for the data dir."""
        try:
            return self.lock.acquire(server=self.name)
        except OSError as exc:
            log.warning("single-instance lock unavailable (%s); running anyway", exc)
            return True

    def listen(self) -> bool:
        """Accept requests from later instances (call after :meth:`acquire` returned True)."""
        if self.server is not None:
            return True
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        # We hold the file lock, so a leftover socket file can only be from a dead instance.
        QLocalServer.removeServer(self.name)
        if not server.listen(self.name):
            log.warning("cannot listen on %s: %s", self.name, server.errorString())
            server.deleteLater()
            return False
        server.newConnection.connect(self._accept)
        self.server = server
        return True

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server.deleteLater()
            self.server = None
        for sock in list(self._buffers):
            with contextlib.suppress(RuntimeError):
                sock.abort()
                sock.deleteLater()
        self._buffers.clear()
        self.lock.release()

    def _accept(self) -> None:
        assert self.server is not None
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            if sock is None:
                break
            self._buffers[sock] = bytearray()
            sock.readyRead.connect(lambda s=sock: self._read(s))
            sock.disconnected.connect(lambda s=sock: self._drop(s))

    def _drop(self, sock: QLocalSocket) -> None:
        self._buffers.pop(sock, None)
        sock.deleteLater()

    def _read(self, sock: QLocalSocket) -> None:
        buf = self._buffers.get(sock)
        if buf is None:
            return
        buf.extend(bytes(sock.readAll().data()))
        if len(buf) > MAX_REQUEST_BYTES:
            sock.abort()
            return
        if b"\n" not in buf:
            return
        line, _, _rest = bytes(buf).partition(b"\n")
        buf.clear()
        request = decode_request(line + b"\n")
        if request is None:
            self.write_log("ignored a malformed request")
            sock.disconnectFromServer()
            return
        sock.write(ACK)
        sock.flush()
        self.handle(request)

    def handle(self, request: dict[str, Any]) -> None:
        """Dispatch one request (also usable directly, e.g. from tests)."""
        action = request.get("action")
        doc_id = request.get("doc_id")
        if action == "open" and isinstance(doc_id, str) and doc_id:
            self.write_log(f"open {doc_id}")
            self.openRequested.emit(doc_id)
        elif action in ("open", "activate"):
            self.write_log("activate")
            self.activateRequested.emit()
        else:
            self.write_log(f"ignored action {action!r}")
        self.requestReceived.emit(request)

    def write_log(self, line: str) -> None:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime())
        with contextlib.suppress(OSError):
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.log_path, "a", encoding="utf-8") as fh:
                fh.write(f"{stamp} pid={os.getpid()} {line}\n")

    # -- later instances -----------------------------------------------------------------------

    def forward(self, action: str, *, timeout_ms: int = 3000, **fields: Any) -> bool:
        """Send a request to the running instance and wait (blocking, bounded) for its ack.
        Use before the event loop runs. True when the first instance acknowledged it."""
        return forward_request(self.name, encode_request(action, **fields), timeout_ms=timeout_ms)


def forward_request(name: str, payload: bytes, *, timeout_ms: int = 3000) -> bool:
    """Blocking client side: connect, write one line, wait for ``ok``. Retries the connection
    briefly (the first instance may be starting up)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        sock = QLocalSocket()
        sock.connectToServer(name)
        if sock.waitForConnected(max(50, int((deadline - time.monotonic()) * 1000))):
            break
        sock.abort()
        if time.monotonic() >= deadline:
            log.warning("no running instance answers on %s", name)
            return False
        time.sleep(0.1)
    try:
        sock.write(payload)
        if not sock.waitForBytesWritten(max(50, int((deadline - time.monotonic()) * 1000))):
            return False
        got = b""
        while b"\n" not in got and time.monotonic() < deadline:
            if sock.waitForReadyRead(max(50, int((deadline - time.monotonic()) * 1000))):
                got += bytes(sock.readAll().data())
            elif sock.state() != QLocalSocket.LocalSocketState.ConnectedState:
                break
        return got.startswith(ACK)
    finally:
        sock.disconnectFromServer()
        sock.abort()


def bring_to_front(widget: Any) -> None:
    """Show, un-minimise, raise and activate a top-level window."""
    from PySide6.QtCore import Qt

    with contextlib.suppress(RuntimeError):
        if widget.isMinimized():
            widget.setWindowState(widget.windowState() & ~Qt.WindowState.WindowMinimized)
        widget.show()
        widget.raise_()
        widget.activateWindow()


# -- the gate (moved here from nothing_lost.py: it runs before the first paint, so it must not
# import the document store and its HTTP stack)

_instance: SingleInstance | None = None


def instance_gate(data_dir: str | Path, open_doc: str | None) -> int | None:
    """None: this process is the instance for ``data_dir`` (keep running). Otherwise the request
    was handed to the running instance: the exit code (0 when it acknowledged)."""
    global _instance
    inst = SingleInstance(data_dir)
    if inst.acquire():
        _instance = inst
        return None
    if open_doc:
        ok = inst.forward("open", doc_id=open_doc)
        what = f"open “{open_doc}”"
    else:
        ok = inst.forward("activate")
        what = "come to the front"
    if ok:
        print(f"Modu Desktop is already running; asked it to {what}.", flush=True)
        return 0
    print("Modu Desktop seems to be running but does not answer.", file=sys.stderr, flush=True)
    return 1


def current_instance() -> SingleInstance | None:
    return _instance
