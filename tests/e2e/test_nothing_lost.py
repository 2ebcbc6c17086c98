"""Nothing lost, end to end: the REAL app process in a real X window (Xvfb + xdotool), against a
sandbox that lives in this test process (so faults can change at run time; the sandbox CLI has
fault flags but no run-time fault endpoint - only ``/_sandbox/stats`` and ``/health``).

1. type into the editor, SIGKILL the app, start it again: the draft comes back byte-for-byte
   (and is saved);
2. cut the network during a save, kill the app, restore the network, start again: exactly one
   content commit;
3. crash while holding a lock: the next start releases it;
4. a second instance asked to open the same document hands it to the first (which logs it);
5. practice mode (``--sandbox``) keeps its address, so a killed session is recovered there too;
6. a killed session whose lock was released meanwhile: the recovery dialog restores the draft.

Every wait is bounded; every process is killed in ``finally``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
DOC = "03-strategy"
PATH = f"docs/{DOC}.md"
TITLE = "비전과 추진 전략"  # the window's title names the open page


def _wait(pred: Callable[[], Any], timeout: float, what: str, step: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(step)
    pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")


# -- X display ------


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    if not shutil.which("Xvfb") or not shutil.which("xdotool"):
        pytest.skip("Xvfb and xdotool are needed for the real-window tests")
    r, w = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(w), "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
        pass_fds=(w,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(w)
    try:
        got = b""
        deadline = time.monotonic() + 10
        while not got.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(r, 16)
            if not chunk:
                break
            got += chunk
        if not got.strip().isdigit():
            pytest.skip("Xvfb did not start")
        yield f":{got.strip().decode()}"
    finally:
        os.close(r)
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def _xdo(display: str, *args: str, timeout: float = 10) -> str:
    out = subprocess.run(
        ["xdotool", *args],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return out.stdout.strip()


def _window(display: str, pattern: str, timeout: float = 20) -> str:
    def find() -> str | None:
        ids = _xdo(display, "search", "--onlyvisible", "--name", pattern).split()
        return ids[-1] if ids else None

    return str(_wait(find, timeout, f"a window named {pattern!r}", 0.2))


def _document_window(display: str, timeout: float = 25) -> str:
    """The main window once it shows the document: its title then starts with the page's."""

    def find() -> str | None:
        for wid in _xdo(display, "search", "--onlyvisible", "--name", "Modu Desktop").split():
            if _xdo(display, "getwindowname", wid).startswith(TITLE):
                return wid
        return None

    return str(_wait(find, timeout, "the document in the window", 0.1))


def _focus(display: str, wid: str) -> None:
    _xdo(display, "windowfocus", "--sync", wid)
    _wait(lambda: _xdo(display, "getwindowfocus").strip() == wid, 5, "the window's focus", 0.05)


# -- sandbox and app ------


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Any]:
    from modu_desktop.sandbox import Sandbox, SandboxUser

    sb = Sandbox(
        tmp_path / "repo",
        users=[SandboxUser("editor1", "tok-editor1", push=True)],
        seed="sample",
        deploy_queue_seconds=60.0,
    )
    sb.start()
    try:
        yield sb
    finally:
        sb.stop()


class App:
    """One app process. ``kill()`` is SIGKILL (a crash); ``quit()`` is SIGTERM (File → Quit)."""

    def __init__(self, sandbox: Any, data: Path, display: str, *args: str) -> None:
        env = dict(os.environ)
        env.update(
            DISPLAY=display,
            QT_QPA_PLATFORM="xcb",
            MODU_TOKEN="tok-editor1",
            MODU_NO_PREVIEW="1",
        )
        env.pop("WAYLAND_DISPLAY", None)
        self.log = data.parent / f"app-{int(time.monotonic() * 1000)}.log"
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self._out = open(self.log, "wb")  # noqa: SIM115 - closed in finish()
        api = [] if sandbox is None else ["--api-url", sandbox.api_url, "--repo", "pnuai/PNU-Modu"]
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "modu_desktop",
                *api,
                "--data-dir",
                str(data),
                "--lang",
                "en",
                "--quit-after",
                "55",
                *args,
            ],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )

    def output(self) -> str:
        self._out.flush()
        return self.log.read_text("utf-8", errors="replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def quit(self, timeout: float = 20) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9

    def finish(self) -> None:
        if self.proc.poll() is None:
            self.kill()
        self._out.close()


@pytest.fixture
def apps() -> Iterator[list[App]]:
    started: list[App] = []
    yield started
    for app in started:
        app.finish()


def _subjects(sandbox: Any, path: str | None = None) -> list[str]:
    return [c["message"] for c in sandbox.commits(path)]


def _content_commits(sandbox: Any) -> list[str]:
    return [s for s in _subjects(sandbox, PATH) if s.startswith("docs(edit)")]


def _lock(sandbox: Any, doc: str) -> bytes | None:
    data: bytes | None = sandbox.read_file(f".locks/{doc}.lock.json")
    return data


def _drafts(data: Path) -> list[Any]:
    from modu_desktop.core.saving.drafts import DraftStore

    return DraftStore(data / "data" / "drafts").list()


def _let_the_editor_take_the_keyboard() -> None:
    """Which widget has the keyboard cannot be seen from outside the app (X knows only the
    window), so the editor is given a moment to take it after the page shows or the view
    switches; the real-window layer's probe into the app can replace this with a question."""
    time.sleep(0.5)


def _raw_view(display: str) -> None:
    """원문 편집 (Ctrl+Shift+E): these tests type Markdown at the end of the text."""
    _xdo(display, "key", "--clearmodifiers", "ctrl+shift+e")
    _let_the_editor_take_the_keyboard()


def _open_and_type(display: str, sandbox: Any, app: App, text_lines: list[str]) -> str:
    """Wait for the document to be open with its lock, type at its end; returns the window."""
    _wait(lambda: _lock(sandbox, DOC), 25, "the lock", 0.2)
    wid = _document_window(display)
    _let_the_editor_take_the_keyboard()  # once the text is shown
    _focus(display, wid)
    _raw_view(display)
    _xdo(display, "key", "--clearmodifiers", "ctrl+End")
    for i, line in enumerate(text_lines):
        if i:
            _xdo(display, "key", "Return")
        _xdo(display, "type", "--delay", "8", line)
    return wid


# -- 1. SIGKILL while typing, then recover byte-for-byte ------


def test_kill_while_typing_recovers_the_draft(
    display: str, sandbox: Any, tmp_path: Path, apps: list[App]
) -> None:
    data = tmp_path / "d"
    original = sandbox.read_file(PATH).decode("utf-8")
    first = App(sandbox, data, display, "--open", DOC)
    apps.append(first)
    # the braces and angle brackets go in a code span: bare, they would break the site's MDX
    # build, and the publish check before the save would stop the save to say so
    typed = ["typed by xdotool: `{a} [b] <c>` 100% ok", "second line ~ end"]
    _open_and_type(display, sandbox, first, typed)
    expected = original + "\n".join(typed)
    # journaled within ~2 s of the last key
    _wait(lambda: any(d.text == expected for d in _drafts(data)), 6, "the draft on disk")
    lock_before = _lock(sandbox, DOC)
    first.kill()  # no goodbye: the draft and the lock stay behind
    assert lock_before is not None and _lock(sandbox, DOC) == lock_before
    n_commits = len(_subjects(sandbox))
    assert _content_commits(sandbox) == []

    second = App(sandbox, data, display)
    apps.append(second)
    # Either the leftover lock is resumed with its draft (editor shows it, modified), or the
    # recovery dialog offers it: its default button restores.
    deadline = time.monotonic() + 25
    restored = False
    while time.monotonic() < deadline and not restored:
        dlg = _xdo(display, "search", "--onlyvisible", "--name", "Recover unsaved text").split()
        if dlg:
            _focus(display, dlg[-1])
            _xdo(display, "key", "Return")
            time.sleep(0.5)
            continue
        titles = [
            _xdo(display, "getwindowname", w)
            for w in _xdo(display, "search", "--onlyvisible", "--name", "Modu Desktop").split()
        ]
        restored = any(t.startswith("*") or "*" in t.split("—")[0] for t in titles)
        time.sleep(0.3)
    assert restored, second.output()[-3000:]
    # The dead session's lock was resumed (one heartbeat under the new session), not released
    # and taken again, and the lock file now names the new session.
    new = _subjects(sandbox)[: len(_subjects(sandbox)) - n_commits]
    assert f"system: release lock for {DOC} [skip ci]" not in new, new
    assert f"system: heartbeat for {DOC} [skip ci]" in new, new
    after = _lock(sandbox, DOC)
    assert after is not None
    assert json.loads(after)["sessionId"] != json.loads(lock_before)["sessionId"]
    wid = _window(display, "Modu Desktop")
    _focus(display, wid)
    _xdo(display, "key", "--clearmodifiers", "ctrl+s")
    _wait(lambda: sandbox.read_file(PATH) == expected.encode("utf-8"), 20, "the saved text")
    assert _content_commits(sandbox) == [f"docs(edit): update {DOC}.md by @editor1"]
    # The app removes the draft once it has read the save's answer; the file on the server can
    # show before that, so quitting at once raced the removal (CI timed out here once).
    _wait(lambda: not any(d.key.doc_id == DOC for d in _drafts(data)), 5, "the draft removed")
    assert second.quit() == 0
    assert _lock(sandbox, DOC) is None  # resumed or re-acquired, then released at quit
    assert not any(d.key.doc_id == DOC for d in _drafts(data))  # and not written back at quit


# -- 2. the network drops during a save ------


def test_network_cut_during_save_commits_exactly_once(
    display: str, sandbox: Any, tmp_path: Path, apps: list[App]
) -> None:
    """The save waits on disk while GitHub is unreachable; it even survives a SIGKILL: the
    next start sends it, verified against the server, exactly once."""
    data = tmp_path / "d"
    original = sandbox.read_file(PATH).decode("utf-8")
    app = App(sandbox, data, display, "--open", DOC)
    apps.append(app)
    _open_and_type(display, sandbox, app, ["saved while offline"])
    expected = original + "saved while offline"
    _wait(lambda: any(d.text == expected for d in _drafts(data)), 6, "the draft on disk")
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    _xdo(display, "key", "--clearmodifiers", "ctrl+s")
    spool = data / "data" / "spool"

    def queued() -> bool:
        return any(p.is_file() for s in ("pending", "sending") for p in (spool / s).glob("*.json"))

    _wait(queued, 30, "the save in the on-disk queue")
    assert _content_commits(sandbox) == []
    app.kill()  # the queue must survive a crash too
    sandbox.faults.update(failure_rate=0.0)
    assert _content_commits(sandbox) == [] and queued()
    again = App(sandbox, data, display)
    apps.append(again)
    _wait(lambda: sandbox.read_file(PATH) == expected.encode("utf-8"), 30, "the queued save")
    _wait(lambda: not queued(), 5, "an empty queue")  # nothing left that could be sent again
    assert _content_commits(sandbox) == [f"docs(edit): update {DOC}.md by @editor1"]
    assert again.quit() == 0
    assert _lock(sandbox, DOC) is None  # the crashed session's lock did not stay behind
    left = [(d.session_id, d.base_sha, d.text == expected, d.saved_at) for d in _drafts(data)]
    assert not left, (left, again.output()[-3000:])  # committed: draft removed


# -- 3. crash while holding a lock ------


def test_crash_holding_lock_is_released_at_next_start(
    display: str, sandbox: Any, tmp_path: Path, apps: list[App]
) -> None:
    data = tmp_path / "d"
    first = App(sandbox, data, display, "--open", "01-welcome")
    apps.append(first)
    _wait(lambda: _lock(sandbox, "01-welcome"), 25, "the lock")
    held = data / "data" / "held-locks"
    _wait(lambda: any(held.glob("*.locks.json")), 5, "the local record of the lock")
    first.kill()
    assert _lock(sandbox, "01-welcome") is not None
    second = App(sandbox, data, display)
    apps.append(second)
    _wait(lambda: _lock(sandbox, "01-welcome") is None, 25, "the leftover lock released")
    assert _subjects(sandbox)[0] == "system: release lock for 01-welcome [skip ci]"
    _wait(lambda: not any(held.glob("*.locks.json")), 5, "the record forgotten")
    assert second.quit() == 0


# -- 4. one window per document ------


def test_second_instance_focuses_the_first(
    display: str, sandbox: Any, tmp_path: Path, apps: list[App]
) -> None:
    data = tmp_path / "d"
    first = App(sandbox, data, display, "--open", DOC)
    apps.append(first)
    _wait(lambda: _lock(sandbox, DOC), 25, "the lock")
    second = App(sandbox, data, display, "--open", DOC)
    apps.append(second)
    rc = second.proc.wait(timeout=20)
    assert rc == 0, second.output()[-2000:]
    assert "already running" in second.output()
    log = data / "data" / "instance.log"
    _wait(
        lambda: log.exists() and f"front {DOC}: focused (already open)" in log.read_text("utf-8"),
        10,
        "the first instance's log line",
    )
    acquires = [s for s in _subjects(sandbox) if s.startswith(f"system: acquire lock for {DOC}")]
    assert len(acquires) == 1  # no second lock session
    assert first.proc.poll() is None
    assert first.quit() == 0


# -- practice mode keeps its address, so a crash's work is recognised ------


def test_practice_mode_recovers_after_kill(display: str, tmp_path: Path, apps: list[App]) -> None:
    data = tmp_path / "p"
    repo = data / "data" / "practice-repo"

    def subjects() -> list[str]:
        out = subprocess.run(
            ["git", "-C", str(repo), "log", "--format=%s", "-n", "10"],
            capture_output=True,
            text=True,
            check=False,
        )
        return out.stdout.splitlines()

    first = App(None, data, display, "--sandbox", "--open", DOC)
    apps.append(first)
    _wait(
        lambda: any(s.startswith(f"system: acquire lock for {DOC}") for s in subjects()),
        25,
        "the practice lock",
    )
    wid = _document_window(display)
    _let_the_editor_take_the_keyboard()
    _focus(display, wid)
    _raw_view(display)
    _xdo(display, "key", "--clearmodifiers", "ctrl+End")
    _xdo(display, "type", "--delay", "8", "practice text")
    _wait(lambda: any(d.text.endswith("practice text") for d in _drafts(data)), 6, "the draft")
    first.kill()
    second = App(None, data, display, "--sandbox")
    apps.append(second)

    def resumed() -> bool:
        ids = _xdo(display, "search", "--onlyvisible", "--name", "Modu Desktop").split()
        return any("*" in _xdo(display, "getwindowname", w).split("—")[0] for w in ids)

    _wait(resumed, 25, "the document back with its unsaved text")
    assert second.quit() == 0
    assert subjects()[0] == f"system: release lock for {DOC} [skip ci]"
    assert any(d.text.endswith("practice text") for d in _drafts(data))  # kept, not lost


# -- the recovery dialog (the lock was released meanwhile) ------


def test_kill_then_lock_released_offers_draft_in_dialog(
    display: str, sandbox: Any, tmp_path: Path, apps: list[App]
) -> None:
    import httpx

    from modu_desktop.core.atomic import git_blob_sha

    data = tmp_path / "d"
    original = sandbox.read_file(PATH).decode("utf-8")
    first = App(sandbox, data, display, "--open", DOC)
    apps.append(first)
    _open_and_type(display, sandbox, first, ["restored through the dialog"])
    expected = original + "restored through the dialog"
    _wait(lambda: any(d.text == expected for d in _drafts(data)), 6, "the draft on disk")
    first.kill()
    lock = _lock(sandbox, DOC)
    assert lock is not None
    # an admin releases the dead session's lock before the app comes back
    resp = httpx.request(
        "DELETE",
        f"{sandbox.api_url}/repos/pnuai/PNU-Modu/contents/.locks/{DOC}.lock.json",
        json={"message": f"system: release lock for {DOC} [skip ci]", "sha": git_blob_sha(lock)},
        headers={"Authorization": "Bearer tok-editor1"},
        timeout=10,
    )
    assert resp.status_code == 200, resp.text
    second = App(sandbox, data, display)
    apps.append(second)
    dlg = _window(display, "Recover unsaved text", 25)
    _focus(display, dlg)
    _xdo(display, "key", "Return")  # the default button: restore and keep editing
    _wait(lambda: _lock(sandbox, DOC), 15, "a fresh lock for the restored document")
    wid = _window(display, "Modu Desktop")
    _wait(lambda: "*" in _xdo(display, "getwindowname", wid).split("—")[0], 10, "the restored text")
    _focus(display, wid)
    _xdo(display, "key", "--clearmodifiers", "ctrl+s")
    _wait(lambda: sandbox.read_file(PATH) == expected.encode("utf-8"), 20, "the saved text")
    assert _content_commits(sandbox) == [f"docs(edit): update {DOC}.md by @editor1"]
    assert second.quit() == 0
    assert _lock(sandbox, DOC) is None
