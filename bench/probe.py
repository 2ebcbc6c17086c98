"""Qt-side measurements, each in its own fresh process (``python -m bench.probe``):

* ``startup``  — the real app (``modu_desktop.ui.shell.app.main``) with one hook on
  ``DocListPanel.set_rows``, installed as the app imports it: the first rows set print
  ``FIRST_LIST <epoch> <rows> <checking>`` (from the persisted list, or fresh), the first fresh
  rows ``FRESH_LIST <epoch> <rows>``; quit.
  The parent takes the time from just before ``Popen`` to that epoch.
* ``qtimport`` — the baseline: ``import PySide6.QtWidgets``, then ``QTIMPORT <epoch>``.
* ``stall``    — a QTimer probe every 5 ms under qasync while the list runs; prints JSON with
  the longest lateness (``ui``: the real ``MainWindow.refresh_list``; ``core``: only
  ``DocumentStore.refresh`` + ``LockManager.list_locks``).
* ``listfilter`` — ``DocListPanel`` with 10,000 rows: list, then a filter typed key by key.
* ``memory``   — the real ``MainWindow``: list every document, open the big one (lock, load,
  editor, ``render_preview`` in the ``QTextBrowser``), then the RSS high-water mark.

The probes import only what they measure; the app is configured through its own flags.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from modu_desktop.ui.shell.main_window import MainWindow


def _children_hwm_kb() -> int:
    """Sum of VmHWM of this process's descendants (Qt WebEngine's renderer, GPU, utility)."""
    import os

    parent: dict[int, int] = {}
    hwm: dict[int, int] = {}
    for name in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status") as fh:
                for line in fh:
                    if line.startswith("PPid:"):
                        parent[int(name)] = int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm[int(name)] = int(line.split()[1])
        except OSError:
            continue
    me, total = os.getpid(), 0
    for pid in parent:
        p = pid
        while p in parent and p != me and p > 1:
            p = parent[p]
        if p == me and pid != me:
            total += hwm.get(pid, 0)
    return total


def _tree_pss_kb() -> tuple[int, int]:
    """(our PSS, our descendants' PSS) in KiB: shared pages (Qt, WebEngine) counted once."""
    import os

    def pss(pid: int | str) -> int:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    parent: dict[int, int] = {}
    for name in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    parent[int(name)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    me, kids = os.getpid(), 0
    for pid in parent:
        p = pid
        while p in parent and p != me and p > 1:
            p = parent[p]
        if p == me and pid != me:
            kids += pss(pid)
    return pss("self"), kids


def _hwm_kb() -> tuple[int, int]:
    """(VmRSS, VmHWM) in KiB from /proc (0 if unavailable)."""
    rss = hwm = 0
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
    except OSError:
        pass
    return rss, hwm


def startup(argv: list[str]) -> int:
    """argv: the app's own flags. The hook goes on the document list's ``set_rows`` (a public
    method of ``ui/doclist/panel.py``) as that module is first imported, by the app itself:
    importing it here would import Qt before the app's own start-up order does."""
    import importlib.util

    state = {"first": False, "fresh": False}

    def install(dl: object) -> None:
        original = dl.DocListPanel.set_rows  # type: ignore[attr-defined]

        def hooked(self: object, rows: list[object], now: float, **kw: object) -> None:
            original(self, rows, now, **kw)
            if not rows:
                return
            stamp = time.time()
            if not state["first"]:
                state["first"] = True
                # Rows set in the list, before their first paint (the same moment as before).
                checking = int(bool(kw.get("checking")))
                print(f"FIRST_LIST {stamp:.6f} {len(rows)} {checking}", flush=True)
            if not kw.get("checking") and not state["fresh"]:
                state["fresh"] = True  # confirmed: by the start window's check or the main window
                print(f"FRESH_LIST {stamp:.6f} {len(rows)}", flush=True)
            # Quit through the main window (the start window hands over to it first).
            quit_ = getattr(self.window(), "request_quit", None)  # type: ignore[attr-defined]
            if state["fresh"] and callable(quit_) and not state.get("quit"):
                state["quit"] = True
                quit_(False)

        dl.DocListPanel.set_rows = hooked  # type: ignore[attr-defined]

    class _HookOnImport:
        """A meta-path finder that only wraps the loading of the document list's module."""

        name = "modu_desktop.ui.doclist.panel"

        def find_spec(self, fullname: str, path: object, target: object = None) -> object:
            if fullname != self.name:
                return None
            sys.meta_path.remove(self)  # type: ignore[arg-type]
            spec = importlib.util.find_spec(fullname)
            assert spec is not None and spec.loader is not None
            run = spec.loader.exec_module

            def exec_module(module: object) -> None:
                run(module)  # type: ignore[arg-type]
                install(module)

            spec.loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, _HookOnImport())  # type: ignore[arg-type]
    from modu_desktop.ui.shell.app import main

    return main(argv)


def qtimport() -> int:
    import PySide6.QtWidgets  # noqa: F401

    print(f"QTIMPORT {time.time():.6f}", flush=True)
    return 0


def _make_window(api_url: str, token: str, data_dir: str) -> MainWindow:
    from modu_desktop.core.account.paths import app_paths
    from modu_desktop.core.account.settings import Settings
    from modu_desktop.core.github.client import GitHubClient, RepoRef
    from modu_desktop.ui.kit.context import AppContext, AppOptions
    from modu_desktop.ui.shell.main_window import MainWindow

    settings = Settings(api_url=api_url)
    client = GitHubClient(api_url, token, RepoRef(settings.owner, settings.name, settings.branch))
    ctx = AppContext(
        settings=settings,
        paths=app_paths(data_dir).ensure(),
        # The window refreshes by itself when the application becomes active; the probes start
        # the list themselves, at a known moment.
        options=AppOptions(lang="en", refresh_on_activate=False),
        client=client,
        login="desk",
        can_push=True,
    ).build()
    win = MainWindow(ctx)
    win.show()
    return win


def _qt() -> tuple[object, object]:
    import asyncio
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import qasync
    from PySide6.QtWidgets import QApplication

    from modu_desktop.ui.shell.qt_setup import prepare_application

    prepare_application()  # WebEngine: shared GL contexts, before the QApplication
    app = QApplication.instance() or QApplication(["modu-bench"])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    return app, loop


class StallTracer:
    """``MODU_BENCH_TRACE_STALLS=MS``: a thread samples the main thread's Python stack every
    2 ms; when the 5 ms timer has not ticked for MS, the stack is counted. A profile of the
    stalls themselves (pyinstrument/py-spy show where time goes, not what blocks the loop)."""

    def __init__(self, threshold_ms: float) -> None:
        import threading

        self.threshold = threshold_ms / 1000
        self.last_tick = time.perf_counter()
        self.samples: dict[str, int] = {}
        self._stop = threading.Event()
        self._main = threading.main_thread().ident
        self._thread = threading.Thread(target=self._run, daemon=True)

    def tick(self) -> None:
        self.last_tick = time.perf_counter()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1)

    def _run(self) -> None:
        import traceback

        while not self._stop.wait(0.002):
            if time.perf_counter() - self.last_tick < self.threshold:
                continue
            frame = sys._current_frames().get(self._main or 0)
            if frame is None:
                continue
            stack = traceback.extract_stack(frame)[-14:]
            key = " <- ".join(
                f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}:{f.name}" for f in reversed(stack)
            )
            self.samples[key] = self.samples.get(key, 0) + 1

    def top(self, n: int = 12) -> list[dict[str, object]]:
        items = sorted(self.samples.items(), key=lambda kv: -kv[1])[:n]
        return [{"samples_2ms": c, "stack": k} for k, c in items]


def stall(api_url: str, token: str, data_dir: str, mode: str) -> int:
    import asyncio
    import json

    from PySide6.QtCore import Qt, QTimer

    app, loop = _qt()
    ticks: list[float] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    import os

    trace_ms = float(os.environ.get("MODU_BENCH_TRACE_STALLS") or 0)
    tracer = StallTracer(trace_ms) if trace_ms else None
    if tracer is not None:
        timer.timeout.connect(tracer.tick)

    async def run() -> dict[str, object]:
        from bench.ours import OurClient

        win: MainWindow | None = None
        ours: OurClient | None = None
        if mode == "ui":
            win = _make_window(api_url, token, data_dir)
        else:
            ours = OurClient(api_url, token, "desk", "pnuai", "PNU-Modu")
        # The app's first request (the sign-in check) happens before its window exists, and it
        # pays one-off lazy imports (anyio's backend, ~0.1 s under PySide's import hook).
        # Do the same here so the probe sees the list, not the first-request imports.
        client = win.ctx.client if win is not None else ours.client  # type: ignore[union-attr]
        t_first = time.perf_counter()
        await client.get_user()
        first_request_s = time.perf_counter() - t_first
        await asyncio.sleep(0.3)  # let the window settle (first paint) before probing
        import gc

        gc_pauses: list[float] = []
        gc_start: list[float] = [0.0]

        def on_gc(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                gc_start[0] = time.perf_counter()
            else:
                gc_pauses.append((time.perf_counter() - gc_start[0]) * 1000)

        gc.callbacks.append(on_gc)
        timer.start()
        await asyncio.sleep(0.1)
        if tracer is not None:
            tracer.start()
        t0 = time.perf_counter()
        ticks.append(t0)
        if win is not None:
            ok = await win.refresh_list()
            rows = len(win.doc_list.rows)
        else:
            assert ours is not None
            snap = await ours.list_docs()
            ok, rows = True, len(snap.docs)
        t1 = time.perf_counter()
        await asyncio.sleep(0.1)  # catch a stall that ends right after the await
        timer.stop()
        gc.callbacks.remove(on_gc)
        if tracer is not None:
            tracer.stop()
        gaps = sorted(
            ((b - a) * 1000 - 5, a - t0)
            for a, b in zip(ticks, ticks[1:], strict=False)
            if a >= t0 - 0.001
        )
        worst = gaps[-5:][::-1]
        if ours is not None:
            await ours.aclose()
        return {
            "mode": mode,
            "ok": bool(ok),
            "rows": rows,
            "list_s": round(t1 - t0, 3),
            "ticks": len(ticks),
            "max_stall_ms": round(worst[0][0], 1) if worst else None,
            "stalls_over_50ms": sum(1 for g, _ in gaps if g > 50),
            "stalls_over_16ms": sum(1 for g, _ in gaps if g > 16),
            "first_request_ms": round(first_request_s * 1000, 1),
            "gc_runs": len(gc_pauses),
            "gc_max_pause_ms": round(max(gc_pauses), 1) if gc_pauses else 0.0,
            "worst": [{"ms": round(g, 1), "at_s": round(at, 3)} for g, at in worst],
            "stall_stacks": tracer.top() if tracer is not None else [],
        }

    with loop:  # type: ignore[attr-defined]
        out = loop.run_until_complete(run())  # type: ignore[attr-defined]
    _finish("RESULT " + json.dumps(out))
    return 0


def memory(api_url: str, token: str, data_dir: str, doc_id: str) -> int:
    import asyncio
    import json
    import resource

    phases: dict[str, int] = {"start_kb": _hwm_kb()[0]}
    app, loop = _qt()
    phases["qt_app_kb"] = _hwm_kb()[0]

    async def run() -> dict[str, object]:
        from modu_desktop.ui.shell.app_run import drop_source_cache

        win = _make_window(api_url, token, data_dir)
        drop_source_cache()  # as the app does once its window is up
        await asyncio.sleep(0.2)
        phases["window_kb"] = _hwm_kb()[0]
        t = time.perf_counter()
        ok = await win.refresh_list()
        list_s = time.perf_counter() - t
        rows = len(win.doc_list.rows)
        phases["listed_kb"] = _hwm_kb()[0]
        phases["listed_hwm_kb"] = _hwm_kb()[1]  # the peak before WebEngine is first used
        t = time.perf_counter()
        opened = await win.open_document(doc_id)
        pane = win.editor_pane
        pane._render_now()  # the debounced preview, now (what the user sees 150 ms later)
        preview = pane.preview
        for _ in range(300):  # the WebEngine page of the preview is loaded
            await asyncio.sleep(0.05)
            if not getattr(preview, "is_render_pending", lambda: False)():
                break
        await asyncio.sleep(0.3)
        open_s = time.perf_counter() - t
        current = getattr(preview, "current_doc", lambda: None)()
        html_len = len(current.content_html()) if current is not None else 0
        phases["renderer_hwm_kb"] = _children_hwm_kb()
        phases["self_pss_kb"], phases["renderer_pss_kb"] = _tree_pss_kb()
        phases["opened_kb"] = _hwm_kb()[0]
        text_chars = len(pane.text())  # before the shutdown closes the document
        await win.shutdown(interactive=False)
        return {
            "ok": bool(ok),
            "opened": bool(opened),
            "rows": rows,
            "list_s": round(list_s, 3),
            "open_preview_s": round(open_s, 3),
            "text_chars": text_chars,
            "preview_html_chars": html_len,
        }

    with loop:  # type: ignore[attr-defined]
        out = loop.run_until_complete(run())  # type: ignore[attr-defined]
    ru_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    out.update(phases)
    out["vm_hwm_kb"] = _hwm_kb()[1]
    out["ru_maxrss_kb"] = ru_kb
    _finish("RESULT " + json.dumps(out))
    return 0


def listfilter(n: int) -> int:
    """The document list with ``n`` rows: ``set_rows`` + the repaint, then a filter
    typed one key at a time (each keystroke = the filter + the repaint), in a fresh process."""
    import json
    import statistics

    app, _loop = _qt()
    from modu_desktop.ui.doclist.panel import DocListPanel, DocRow, LockBadge

    badge = LockBadge("editor2", time.time() - 60, time.time() - 30, stale=False, mine=False)
    rows = [
        DocRow(
            f"part-{i:05d}",
            f"docs/{i:05d}-part.md",
            f"부산대 안내 {i}번째 문서",
            i + 1 if i % 10 else None,
            badge if i % 50 == 0 else None,
        )
        for i in range(n)
    ]
    panel = DocListPanel()
    panel.resize(520, 900)
    panel.show()
    app.processEvents()  # type: ignore[attr-defined]
    t, c = time.perf_counter(), time.thread_time()
    panel.set_rows(rows, time.time())
    panel.repaint()
    list_ms = (time.perf_counter() - t) * 1000
    list_cpu_ms = (time.thread_time() - c) * 1000
    keys: list[float] = []
    cpu: list[float] = []  # this thread's CPU time: the work, without the machine's other load
    for text in ("1", "12", "123", "1234", "123", "12", "1", "", "안", "안내", "안내 9", ""):
        t, c = time.perf_counter(), time.thread_time()
        panel.filter_edit.setText(text)
        panel.repaint()
        keys.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - c) * 1000)
    out = {
        "rows": n,
        "list_ms": round(list_ms, 1),
        "list_cpu_ms": round(list_cpu_ms, 1),
        "keystroke_max_ms": round(max(keys), 1),
        "keystroke_median_ms": round(statistics.median(keys), 1),
        "keystroke_cpu_max_ms": round(max(cpu), 1),
        "keystrokes": len(keys),
        "visible_after": len(panel.visible_doc_ids()),
    }
    _finish("RESULT " + json.dumps(out))
    return 0


def _finish(line: str) -> None:
    """Print the result and leave without interpreter finalisation (PySide 6.12 can crash in
    garbage collection at exit; the measurement is done by then)."""
    import os

    print(line, flush=True)
    sys.stderr.flush()
    if os.environ.get("MODU_BENCH_PROFILE"):
        return  # under a profiler: let it write its report at exit
    os._exit(0)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: probe startup|qtimport|stall|memory …", file=sys.stderr)
        return 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "startup":
        return startup(rest)
    if cmd == "qtimport":
        return qtimport()
    if cmd == "stall":
        return stall(rest[0], rest[1], rest[2], rest[3])
    if cmd == "listfilter":
        return listfilter(int(rest[0]) if rest else 10_000)
    if cmd == "memory":
        return memory(rest[0], rest[1], rest[2], rest[3])
    print(f"unknown probe {cmd!r}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
