"""Real hands: an X server with a real window manager, the real app in it, and a person's
mouse and keyboard (``xdotool``). The app is read through its probe
(:mod:`modu_desktop.ui.kit.hands_probe`) and acted on only through X. See tests/hands/README.md.

Every wait polls a condition with a deadline; when the deadline passes, the whole X screen is
saved and the failure message names the file.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NEEDED = ("Xvfb", "xdotool", "openbox")
POLL_S = 0.05

# The screen grab runs in a process of its own, so a hung app cannot stop it.
_GRAB = """
import sys
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(sys.argv[:1])
sys.exit(0 if app.primaryScreen().grabWindow(0).save(sys.argv[1], "PNG") else 1)
"""


# How long Xvfb and openbox may take to start: a deadline, not a pause; generous because a CI
# machine's two cores are busy with the rest of the suite
_START_S = 60


def missing_tools() -> list[str]:
    return [t for t in NEEDED if shutil.which(t) is None]


def wait_for(
    pred: Callable[[], Any],
    timeout: float,
    what: str,
    *,
    screen: XScreen | None = None,
    detail: Callable[[], str] | None = None,
) -> Any:
    """``pred()``'s first truthy value; on timeout the test fails, with a screenshot of
    ``screen`` and ``detail()`` in its message."""
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while True:
        try:
            value = pred()
            last_error = None
        except (LookupError, ProbeError) as exc:  # not there yet
            value, last_error = None, exc
        if value:
            return value
        if time.monotonic() >= deadline:
            break
        time.sleep(POLL_S)
    lines = [f"timed out after {timeout:.0f}s waiting for {what}"]
    if last_error is not None:
        lines.append(f"last error: {last_error}")
    if detail is not None:
        with contextlib.suppress(Exception):
            lines.append(detail())
    if screen is not None:
        lines.append(f"screenshot: {screen.screenshot(what)}")
    pytest.fail("\n".join(lines), pytrace=False)


# ---------------------------------------------------------------------- typing any character


class XKeyboard:
    """Characters without a key (Hangul, among others) typed through X.

    ``xdotool type`` gives such a character a spare keycode, presses it, and takes the keycode
    back before the next character; a busy app reads the keyboard map only when it gets to the
    map's change notice, by which time the keycode means the next character or nothing — "가나다"
    arrived as "가다다". Here every such character of a text gets a keycode of its own *before*
    any key is pressed (one map change), and keeps it, so the app reads one final map whenever
    it reads it; the keys then go through XTest, as xdotool's do. Keycodes come from those with
    no symbol or an XF86 media symbol (nobody presses those in a test screen); when they run
    out, the least recently used is given again (the app has long read its key).
    """

    def __init__(self, display: str) -> None:
        x11 = ctypes.util.find_library("X11")
        xtst = ctypes.util.find_library("Xtst")
        if not x11 or not xtst:
            raise RuntimeError("libX11 and libXtst are needed to type characters without a key")
        self._x = ctypes.cdll.LoadLibrary(x11)
        self._t = ctypes.cdll.LoadLibrary(xtst)
        self._x.XOpenDisplay.restype = ctypes.c_void_p
        self._x.XKeysymToString.restype = ctypes.c_char_p
        self._x.XGetKeyboardMapping.restype = ctypes.POINTER(ctypes.c_ulong)
        handle = self._x.XOpenDisplay(display.encode())
        if not handle:
            raise RuntimeError(f"cannot open display {display}")
        self._d = ctypes.c_void_p(handle)
        self._given: dict[str, int] = {}  # character → its keycode, most recent last
        self._spare = self._spare_keycodes()
        self._typeable = self._keysyms_in_map()

    def close(self) -> None:
        if self._d:
            self._x.XCloseDisplay(self._d)
            self._d = ctypes.c_void_p(0)

    def _mapping(self) -> tuple[int, int, list[int]]:
        low, high = ctypes.c_int(), ctypes.c_int()
        self._x.XDisplayKeycodes(self._d, ctypes.byref(low), ctypes.byref(high))
        per = ctypes.c_int()
        count = high.value - low.value + 1
        syms = self._x.XGetKeyboardMapping(self._d, low.value, count, ctypes.byref(per))
        flat = [syms[i] for i in range(count * per.value)]
        self._x.XFree(syms)
        return low.value, per.value, flat

    def _spare_keycodes(self) -> list[int]:
        low, per, flat = self._mapping()
        out = []
        for n in range(len(flat) // per):
            first = flat[n * per]
            name = self._x.XKeysymToString(ctypes.c_ulong(first)) if first else None
            if first == 0 or (name or b"").startswith(b"XF86"):
                out.append(low + n)
        return out

    def _keysyms_in_map(self) -> set[int]:
        _low, per, flat = self._mapping()
        # the first two levels: a key, with or without Shift (what xdotool types)
        return {flat[n * per + i] for n in range(len(flat) // per) for i in range(min(2, per))}

    @staticmethod
    def keysym(char: str) -> int:
        code = ord(char)
        return code if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF else 0x1000000 + code

    def needs_keycode(self, char: str) -> bool:
        return self.keysym(char) not in self._typeable

    def type_keyless(self, text: str, delay_s: float = 0.01) -> None:
        """Type ``text`` (characters that have no key) through XTest."""
        wanted = list(dict.fromkeys(text))
        if len(wanted) > len(self._spare):
            raise ValueError(f"{len(wanted)} different characters; at most {len(self._spare)}")
        for char in wanted:
            if char in self._given:
                self._given[char] = self._given.pop(char)  # used again: most recent
                continue
            used = set(self._given.values())
            free = [k for k in self._spare if k not in used]
            if free:
                code = free[0]
            else:
                oldest = next(c for c in self._given if c not in wanted)
                code = self._given.pop(oldest)
            sym = self.keysym(char)
            syms = (ctypes.c_ulong * 2)(sym, sym)
            self._x.XChangeKeyboardMapping(self._d, code, 2, syms, 1)
            self._given[char] = code
        self._x.XSync(self._d, 0)
        for char in text:
            code = self._given[char]
            self._t.XTestFakeKeyEvent(self._d, code, 1, 0)
            self._t.XTestFakeKeyEvent(self._d, code, 0, 0)
            self._x.XFlush(self._d)
            time.sleep(delay_s)
        self._x.XSync(self._d, 0)


# ---------------------------------------------------------------------- the X server


class XScreen:
    """Xvfb at ``width``×``height`` with openbox managing its windows."""

    def __init__(self, width: int, height: int, shots: Path) -> None:
        self.width = width
        self.height = height
        self.shots = shots
        self.display = ""
        self._procs: list[subprocess.Popen[bytes]] = []
        self._shot_count = 0
        self._keyboard: XKeyboard | None = None

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
        env["DISPLAY"] = self.display
        return env

    def start(self) -> None:
        r, w = os.pipe()
        xvfb = subprocess.Popen(
            [
                "Xvfb",
                "-displayfd",
                str(w),
                "-screen",
                "0",
                f"{self.width}x{self.height}x24",
                "-nolisten",
                "tcp",
            ],
            pass_fds=(w,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._procs.append(xvfb)
        os.close(w)
        got = b""
        try:
            deadline = time.monotonic() + _START_S
            while not got.endswith(b"\n") and time.monotonic() < deadline:
                chunk = os.read(r, 16)
                if not chunk:
                    break
                got += chunk
        finally:
            os.close(r)
        if not got.strip().isdigit():
            self.stop()
            pytest.skip("Xvfb did not start")
        self.display = f":{got.strip().decode()}"
        wm = subprocess.Popen(
            ["openbox", "--sm-disable"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._procs.append(wm)
        wait_for(self._wm_running, _START_S, "openbox to manage the screen")

    def _wm_running(self) -> bool:
        out = subprocess.run(
            ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"],
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        return "window id" in out

    def stop(self) -> None:
        if self._keyboard is not None:
            self._keyboard.close()
            self._keyboard = None
        for proc in reversed(self._procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=5)
        self._procs.clear()

    # -- hands ------
    def xdo(self, *args: str, timeout: float = 15) -> str:
        out = subprocess.run(
            ["xdotool", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if out.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)}: {out.stderr.strip()}")
        return out.stdout.strip()

    def click(self, x: int, y: int, button: int = 1) -> None:
        # no --sync: it waits for the pointer to move, forever when it is already there; the
        # server takes XTest's motion and click in order anyway
        self.xdo("mousemove", str(x), str(y), "click", str(button))

    def click_rect(self, rect: list[int], *, dx: int | None = None, dy: int | None = None) -> None:
        """A click inside ``rect`` ([x, y, w, h]): at its middle unless ``dx``/``dy`` say."""
        x, y, w, h = rect
        self.click(x + (w // 2 if dx is None else dx), y + (h // 2 if dy is None else dy))

    def key(self, *keys: str) -> None:
        self.xdo("key", "--clearmodifiers", "--delay", "40", *keys)

    def type(self, text: str, delay_ms: int = 25) -> None:
        """Typed through X as a keyboard would, Hangul included: runs of characters that
        have a key go through ``xdotool type``, the others through :class:`XKeyboard`."""
        if self._keyboard is None:
            self._keyboard = XKeyboard(self.display)
        keyboard = self._keyboard
        run = ""
        for char in text:
            if run and keyboard.needs_keycode(char) != keyboard.needs_keycode(run[-1]):
                self._type_run(run, delay_ms)
                run = ""
            run += char
        if run:
            self._type_run(run, delay_ms)

    def _type_run(self, run: str, delay_ms: int) -> None:
        assert self._keyboard is not None
        if self._keyboard.needs_keycode(run[0]):
            self._keyboard.type_keyless(run, delay_ms / 1000)
        else:
            self.xdo("type", "--delay", str(delay_ms), "--", run, timeout=60)

    # -- eyes ------
    def screenshot(self, name: str) -> Path:
        """The whole X screen as a PNG in :attr:`shots` (the file's path)."""
        self.shots.mkdir(parents=True, exist_ok=True)
        self._shot_count += 1
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name)[-70:]
        path = self.shots / f"{self._shot_count:02d}-{self.width}x{self.height}-{safe}.png"
        env = {**self.env, "QT_QPA_PLATFORM": "xcb"}
        subprocess.run([sys.executable, "-c", _GRAB, str(path)], env=env, timeout=30, check=False)
        return path


# ---------------------------------------------------------------------- the probe


class ProbeError(Exception):
    """The probe did not answer (yet), or answered with an error."""


class Probe:
    """Asks the app's probe (one JSON line out, one back)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._sock: socket.socket | None = None
        self._buf = b""
        self._lock = threading.Lock()

    def close(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
        self._sock = None
        self._buf = b""

    def ask(self, q: str, **fields: Any) -> dict[str, Any]:
        with self._lock:
            try:
                if self._sock is None:
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    sock.settimeout(20)
                    sock.connect(str(self.path))
                    self._sock = sock
                self._sock.sendall(json.dumps({"q": q, **fields}).encode() + b"\n")
                while b"\n" not in self._buf:
                    chunk = self._sock.recv(65536)
                    if not chunk:
                        raise ProbeError("the app closed the probe")
                    self._buf += chunk
            except OSError as exc:
                self.close()
                raise ProbeError(f"probe: {exc}") from exc
            line, self._buf = self._buf.split(b"\n", 1)
        answer: dict[str, Any] = json.loads(line)
        if not answer.get("ok"):
            raise ProbeError(str(answer.get("error")))
        return answer

    # -- shorthands ------
    def widgets(self, **query: Any) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.ask("find", **query)["widgets"]
        return found

    def widget(self, **query: Any) -> dict[str, Any]:
        found = self.widgets(**query)
        if not found:
            raise LookupError(f"no widget {query}")
        return found[0]

    def focus(self) -> dict[str, Any]:
        return self.ask("focus")

    def text(self, **query: Any) -> dict[str, Any]:
        return self.ask("text", **query)

    def document(self) -> dict[str, Any]:
        return self.ask("document")

    def windows(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.ask("windows")["windows"]
        return found

    def window_open(self, name: str) -> bool:
        """Whether a top window of that object name is shown."""
        return any(w["name"] == name for w in self.windows())

    def picture_row(self, name: str) -> dict[str, Any] | None:
        """The picture library's row of the picture file ``name`` (None: not listed)."""
        rows = self.ask("rows", name="pictureList")["rows"]
        return next((r for r in rows if r["texts"][0].startswith(name + "\n")), None)

    def menu_item(self, text: str | None = None, name: str | None = None) -> dict[str, Any]:
        for menu in self.ask("menus")["menus"]:
            for item in menu["items"]:
                if text not in (None, item["text"]) or name not in (None, item["name"]):
                    continue
                found: dict[str, Any] = item
                return found
        raise LookupError(f"no open menu entry {text or name!r}")


# ---------------------------------------------------------------------- the app


@dataclass
class Account:
    login: str
    token: str


class HandsApp:
    """The real app process on ``screen``, against the sandbox at ``api_url``, with its probe."""

    def __init__(
        self,
        screen: XScreen,
        api_url: str,
        data_dir: Path,
        account: Account,
        *args: str,
        lang: str = "ko",
        preview: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        self.screen = screen
        self.data_dir = data_dir
        self._probe_dir = Path(tempfile.mkdtemp(prefix="hands-"))  # a socket path is short
        self.probe = Probe(self._probe_dir / "probe")
        full_env = {
            **screen.env,
            "QT_QPA_PLATFORM": "xcb",
            "MODU_TOKEN": account.token,
            "MODU_HANDS_PROBE": str(self.probe.path),
            "MODU_NO_UPDATE_CHECK": "1",
            **(env or {}),
        }
        if not preview:
            full_env["MODU_NO_PREVIEW"] = "1"
        data_dir.mkdir(parents=True, exist_ok=True)
        self.log = data_dir.parent / f"{data_dir.name}-app.log"
        self._out = open(self.log, "ab")  # noqa: SIM115 - closed in finish()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "modu_desktop",
                "--api-url",
                api_url,
                "--repo",
                "pnuai/PNU-Modu",
                "--data-dir",
                str(data_dir),
                "--lang",
                lang,
                *args,
            ],
            cwd=ROOT,
            env=full_env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )
        self.wait(lambda: self.probe.ask("ping"), 60, "the app's probe")

    def output(self, tail: int = 4000) -> str:
        self._out.flush()
        return self.log.read_text("utf-8", errors="replace")[-tail:]

    def wait(self, pred: Callable[[], Any], timeout: float, what: str) -> Any:
        def checked() -> Any:
            if self.proc.poll() is not None:
                pytest.fail(f"the app ended ({self.proc.returncode}):\n{self.output()}")
            return pred()

        return wait_for(checked, timeout, what, screen=self.screen, detail=self._state)

    def _state(self) -> str:
        try:
            focus = self.probe.focus()
            windows = [w["title"] or w["name"] for w in self.probe.windows()]
            return f"focus: {focus.get('widget')}\nwindows: {windows}"
        except Exception as exc:  # the probe itself may be what failed
            return f"(probe: {exc})\n{self.output(1500)}"

    # -- a person's actions, at what the probe shows ------
    def click(self, *, dx: int | None = None, dy: int | None = None, **query: Any) -> None:
        w = self.wait(lambda: self.probe.widget(**query), 20, f"a widget {query}")
        self.screen.click_rect(w["rect"], dx=dx, dy=dy)

    def click_text(self, find: str, *, end: bool = True, offset: int = 0, **query: Any) -> None:
        """A click in a text box, at the place right after (or before) ``find``."""
        at = self.wait(
            lambda: self.probe.ask("text_rect", find=find, end=end, offset=offset, **query),
            20,
            f"{find!r} in {query}",
        )
        x, y, _w, h = at["rect"]
        self.screen.click(x + 1, y + h // 2)

    def focus_name(self) -> str:
        w = self.probe.focus().get("widget")
        return str(w["name"]) if w else ""

    def finish(self) -> None:
        """SIGTERM (the app's own quit, locks released), then SIGKILL if it hangs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.close()

    def kill(self) -> None:
        """SIGKILL: a crash, no goodbye."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.close()

    def close(self) -> None:
        self.probe.close()
        with contextlib.suppress(OSError):
            self._out.close()
        shutil.rmtree(self._probe_dir, ignore_errors=True)


@contextlib.contextmanager
def running(app: HandsApp) -> Iterator[HandsApp]:
    try:
        yield app
    finally:
        app.finish()


def put_page(sandbox: Any, path: str, text: str, token: str = "tok-editor1") -> None:
    """A page in the sandbox's repository, written as an editor would (one commit)."""
    from tests.helpers.sandbox import REPO_PATH, b64, client_for

    with client_for(sandbox, token) as client:
        current = client.get(f"{REPO_PATH}/contents/{path}")
        body: dict[str, Any] = {"message": f"test: write {path}", "content": b64(text)}
        if current.status_code == 200:
            body["sha"] = current.json()["sha"]
        answer = client.put(f"{REPO_PATH}/contents/{path}", json=body)
        answer.raise_for_status()


def page(doc_id: str, title: str, body: str, position: int = 90) -> str:
    """A page's text: its front matter and ``body``."""
    return f"---\nid: {doc_id}\ntitle: {title}\nsidebar_position: {position}\n---\n\n{body}"
