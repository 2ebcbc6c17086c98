"""``python -m bench pictures``: the picture library (그림 모음) on a site with 500 pictures.

A generated site (``write_site``: photos as JPEG and drawings as PNG of mixed sizes, from
640 px to 3000 px, drawn with Qt and given grain so they weigh what photos weigh; 100 pages of
``bench/gen.py`` using them with descriptions, in Markdown, HTML and block fields, a tenth of
the pictures used by no page and three pages naming a picture the site lacks) is served by a
sandbox with latency. One probe process (``python -m bench.pictures probe …``) makes the real
main window, lists the documents, then opens the library the way the menu does, twice:

* **first view** — from the action to the list painted with every picture's name (the
  thumbnails still filling in); target ≤ 1 s;
* **all thumbnails** — until the last thumbnail is in; the first time every picture's bytes are
  read from GitHub (by blob sha, a few at a time) and each thumbnail is made and written to
  disk, the second time they come from the disk cache;
* **memory** — RSS before the first opening and once every thumbnail is in; target ≤ +50 MB;
* **the event loop** — the longest a 5 ms timer was late while the library opened and filled;
* **requests** — counted by the sandbox for each opening.

The site is written once per (pictures, pages, seed) into the temp folder and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.cli_args import number_list
from bench.gen import document, generate
from bench.server import OURS, SandboxHandle

CHECKOUT = Path(__file__).resolve().parents[1]
SUBJECTS = (
    "campus",
    "입학식",
    "lab",
    "library",
    "dormitory",
    "festival",
    "graduation",
    "lecture-hall",
    "seminar",
    "team-project",
    "hackathon",
    "cafeteria",
    "sports-day",
    "mentoring",
    "field-trip",
)
PHOTO_SIDES = (640, 1024, 1280, 1600, 2048, 3000)
DRAWING_SIDES = (240, 400, 640, 800, 1200)


# --------------------------------------------------------------------------- the site


def _qt_app() -> Any:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.instance() or QGuiApplication(["modu-bench-pictures"])


def _grain(rng: random.Random) -> Any:
    from PySide6.QtGui import QImage

    side = 128
    noise = QImage(rng.randbytes(side * side), side, side, side, QImage.Format.Format_Grayscale8)
    return noise.copy()  # owns its bytes


def photo(rng: random.Random, width: int, height: int) -> Any:
    """Sky, ground, buildings and trees, with grain (JPEG then weighs what a photo weighs)."""
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QBrush, QColor, QImage, QLinearGradient, QPainter

    image = QImage(width, height, QImage.Format.Format_RGB32)
    p = QPainter(image)
    sky = QLinearGradient(QPointF(0, 0), QPointF(0, height))
    sky.setColorAt(0, QColor.fromHsv(rng.randint(190, 230), 120, 240))
    sky.setColorAt(1, QColor.fromHsv(rng.randint(20, 60), 60, 250))
    p.fillRect(image.rect(), sky)
    ground = height * rng.uniform(0.55, 0.75)
    grass = QColor.fromHsv(rng.randint(60, 120), 90, 140)
    p.fillRect(QRectF(0, ground, width, height - ground), grass)
    for _ in range(rng.randint(4, 9)):
        w = width * rng.uniform(0.08, 0.25)
        h = height * rng.uniform(0.15, 0.45)
        x = rng.uniform(0, width - w)
        wall = QColor.fromHsv(rng.randint(0, 359), 40, rng.randint(120, 220))
        p.fillRect(QRectF(x, ground - h, w, h), wall)
        for row in range(int(h // (height * 0.06))):
            y = ground - h + row * height * 0.06 + height * 0.015
            p.fillRect(QRectF(x + w * 0.1, y, w * 0.8, height * 0.025), QColor(60, 70, 90, 160))
    p.setPen(QColor(0, 0, 0, 0))
    for _ in range(rng.randint(6, 20)):
        r = height * rng.uniform(0.03, 0.09)
        p.setBrush(QColor.fromHsv(rng.randint(80, 140), 160, rng.randint(60, 150)))
        p.drawEllipse(QPointF(rng.uniform(0, width), ground + rng.uniform(-r, r)), r, r * 1.3)
    p.setOpacity(0.18)
    p.fillRect(image.rect(), QBrush(_grain(rng)))
    p.end()
    return image


def drawing(rng: random.Random, width: int, height: int) -> Any:
    """A chart or a diagram: flat colours (a PNG, small for its size)."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("#ffffff"))
    p = QPainter(image)
    bars = rng.randint(3, 8)
    for i in range(bars):
        h = height * rng.uniform(0.2, 0.85)
        w = width / (bars * 1.6)
        p.fillRect(
            QRectF(width * 0.08 + i * w * 1.5, height * 0.92 - h, w, h),
            QColor.fromHsv((i * 47 + rng.randint(0, 30)) % 360, 150, 220),
        )
    p.end()
    return image


def encode(image: Any, fmt: str, quality: int = -1) -> bytes:
    from PySide6.QtCore import QBuffer, QIODevice

    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, fmt, quality)
    return bytes(buf.data().data())


def _picture(rng: random.Random, i: int) -> tuple[str, bytes]:
    subject = SUBJECTS[i % len(SUBJECTS)]
    if rng.random() < 0.7:
        side = rng.choice(PHOTO_SIDES)
        w, h = (side, side * 3 // 4) if rng.random() < 0.75 else (side * 3 // 4, side)
        name = f"{subject}-{i:03d}.jpg"
        return name, encode(photo(rng, w, h), "JPEG", rng.choice((80, 85, 92)))
    side = rng.choice(DRAWING_SIDES)
    name = f"{subject}-chart-{i:03d}.png"
    return name, encode(drawing(rng, side, side * 2 // 3), "PNG")


def write_site(
    root: Path, pictures: int = 500, pages: int = 100, *, seed: int = 11
) -> dict[str, Any]:
    """Write the site under ``root`` (see the module docstring); what it holds."""
    _qt_app()
    generate(root, 0, big=False)  # the deploy workflow and the site's configuration
    rng = random.Random(seed)
    paths: list[str] = []
    total = 0
    for i in range(pictures):
        name, data = _picture(rng, i)
        folder = "docs/img" if i % 12 == 5 else f"static/img/{SUBJECTS[i % len(SUBJECTS)]}"
        if not folder.isascii():
            folder = "static/img/events"
        target = root / folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        paths.append(f"{folder}/{name}")
        total += len(data)
    used = [p for i, p in enumerate(paths) if i % 10 != 9]  # a tenth used by no page
    docs = root / "docs"
    for n in range(1, pages + 1):
        doc_id = f"{n:04d}-doc{n}"
        body = document(rng, n, doc_id) + "\n" + _uses(rng, used, n, pages)
        (docs / f"{doc_id}.md").write_text(body, encoding="utf-8")
    return {"pictures": pictures, "pages": pages, "bytes": total, "unused": pictures - len(used)}


def _uses(rng: random.Random, used: list[str], n: int, pages: int) -> str:
    """The pictures page ``n`` shows: its share of ``used`` (each used picture on one or two
    pages), written the three ways pages write them."""
    mine = used[(n - 1) * len(used) // pages : n * len(used) // pages]
    mine += rng.sample(used, k=min(2, len(used)))
    lines = []
    for path in mine:
        address = "./img/" + path.rsplit("/", 1)[1] if path.startswith("docs/") else path[6:]
        alt = f"{rng.choice(SUBJECTS)} 사진"
        kind = rng.random()
        if kind < 0.7:
            lines.append(f"![{alt}]({address})\n")
        elif kind < 0.85:
            lines.append(f'<img src="{address}" alt="{alt}" width="480" />\n')
        else:
            lines.append(f":::cards\ntitle: 사진\n\n- title: {alt}\n  image: {address}\n:::\n")
    if n <= 3:
        lines.append(f"![없는 그림](/img/missing-{n}.png)\n")
    return "\n".join(lines)


def site_folder(pictures: int, pages: int, seed: int) -> Path:
    """The site, written once into the temp folder and reused."""
    root = Path(tempfile.gettempdir()) / f"modu-bench-pictures-{pictures}-{pages}-{seed}"
    done = root / ".complete.json"
    if not done.is_file():
        if root.exists():
            import shutil

            shutil.rmtree(root)
        summary = write_site(root, pictures, pages, seed=seed)
        done.write_text(json.dumps(summary), encoding="utf-8")
    return root


# --------------------------------------------------------------------------- the probe


def _requests(api_url: str) -> int:
    import urllib.request

    with urllib.request.urlopen(api_url + "/_sandbox/stats", timeout=30) as resp:
        return int(json.loads(resp.read())["total"])


def probe(api_url: str, token: str, data_dir: str) -> int:
    """In its own process: the window, the list, then the library opened twice."""
    import asyncio

    from PySide6.QtCore import QEvent, QObject, Qt, QTimer

    from bench.probe import StallTracer, _finish, _hwm_kb, _make_window, _qt

    _app, loop = _qt()
    ticks: list[float] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    trace_ms = float(os.environ.get("MODU_BENCH_TRACE_STALLS") or 0)  # as the stall probe
    tracer = StallTracer(trace_ms) if trace_ms else None
    if tracer is not None:
        timer.timeout.connect(tracer.tick)
        tracer.start()

    class Painted(QObject):
        """The moment the list is first painted with its rows in it."""

        def __init__(self, ready: Any) -> None:
            super().__init__()
            self.ready = ready
            self.at: float | None = None

        def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
            if event.type() == QEvent.Type.Paint and self.at is None and self.ready():
                self.at = time.perf_counter()
            return False

    async def open_once(win: Any) -> dict[str, Any]:
        entry = win.ops_host.library
        before_req = _requests(api_url)
        rss_before = _hwm_kb()[0]
        ticks.clear()
        timer.start()
        t0 = time.perf_counter()
        ticks.append(t0)
        dlg = entry.open()  # what 그림 모음 in the menu does
        painted = Painted(lambda: dlg.loaded and dlg.model.rowCount() > 0)
        dlg.view.viewport().installEventFilter(painted)
        while painted.at is None:
            await asyncio.sleep(0.002)
        first = painted.at - t0
        rows = dlg.model.rowCount()
        while dlg.loader.pending() > 0:
            await asyncio.sleep(0.01)
        all_in = time.perf_counter() - t0
        await asyncio.sleep(0.05)
        timer.stop()
        rss_after = _hwm_kb()[0]
        gaps = [(b - a) * 1000 - 5 for a, b in zip(ticks, ticks[1:], strict=False)]
        out = {
            "first_view_s": round(first, 3),
            "rows": rows,
            "all_thumbnails_s": round(all_in, 3),
            "made": dlg.loader.made,
            "broken": sum(1 for p in dlg.model.library.pictures if dlg.model.is_broken(p.sha)),
            "requests": _requests(api_url) - before_req,
            "rss_before_mb": round(rss_before / 1024, 1),
            "rss_after_mb": round(rss_after / 1024, 1),
            "rss_growth_mb": round((rss_after - rss_before) / 1024, 1),
            "max_stall_ms": round(max(gaps), 1) if gaps else None,
        }
        dlg.reject()
        await asyncio.sleep(0.1)
        return out

    async def run() -> dict[str, Any]:
        win = _make_window(api_url, token, data_dir)
        await win.ctx.client.get_user()
        t = time.perf_counter()
        await win.refresh_list()
        listed = time.perf_counter() - t
        await asyncio.sleep(0.3)
        first = await open_once(win)
        second = await open_once(win)
        thumbs = Path(data_dir) / "cache" / "thumbnails"
        disk = sum(f.stat().st_size for f in thumbs.rglob("*.png"))
        await win.shutdown(interactive=False)
        return {
            "documents": len(win.doc_list.rows),
            "list_s": round(listed, 3),
            "first": first,
            "second": second,
            "thumbnail_cache_mb": round(disk / 1024 / 1024, 1),
            "stall_stacks": tracer.top() if tracer is not None else [],
        }

    with loop:  # type: ignore[attr-defined]
        out = loop.run_until_complete(run())  # type: ignore[attr-defined]
    _finish("RESULT " + json.dumps(out))
    return 0


# --------------------------------------------------------------------------- the parent


def measure(site: Path, latency_ms: int) -> dict[str, Any]:
    with SandboxHandle(site, latency_ms) as sb:
        data = tempfile.mkdtemp(prefix="modu-bench-pictures-data-")
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        env.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
        env.pop("MODU_DATA_DIR", None)
        r = subprocess.run(
            [sys.executable, "-m", "bench.pictures", "probe", sb.api_url, OURS.token, data],
            env=env,
            cwd=CHECKOUT,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        line = next((ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")), None)
        if line is None:
            raise RuntimeError(f"picture library probe failed ({r.returncode}): {r.stderr[-800:]}")
        out = dict(json.loads(line[len("RESULT ") :]))
        out["latency_ms"] = latency_ms
        return out


def table(summary: dict[str, Any], results: list[dict[str, Any]]) -> str:
    head = (
        f"Picture library: {summary['pictures']} pictures "
        f"({summary['bytes'] / 1024 / 1024:.0f} MB, {summary['unused']} used by no page), "
        f"{summary['pages']} pages\n\n"
        "| latency | opening | first view | all thumbnails | made | requests | RSS growth "
        "| longest stall |\n|---|---|---|---|---|---|---|---|"
    )
    rows = [head]
    for r in results:
        for label, key in (("first (nothing cached)", "first"), ("second (disk cache)", "second")):
            o = r[key]
            rows.append(
                f"| {r['latency_ms']} ms | {label} | {o['first_view_s'] * 1000:.0f} ms "
                f"| {o['all_thumbnails_s']:.2f} s | {o['made']} | {o['requests']} "
                f"| {o['rss_growth_mb']:+.1f} MB | {o['max_stall_ms']:.0f} ms |"
            )
    first_views = [r[k]["first_view_s"] for r in results for k in ("first", "second")]
    growth = [r[k]["rss_growth_mb"] for r in results for k in ("first", "second")]
    rows.append("")
    rows.append(
        f"first view ≤ 1 s: {'met' if max(first_views) <= 1.0 else 'MISSED'} "
        f"(worst {max(first_views) * 1000:.0f} ms); memory ≤ +50 MB: "
        f"{'met' if max(growth) <= 50 else 'MISSED'} (worst {max(growth):+.1f} MB); "
        f"thumbnails on disk: {results[-1]['thumbnail_cache_mb']} MB"
    )
    return "\n".join(rows)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench pictures",
        description="The picture library (그림 모음) on a site with many pictures.",
    )
    p.add_argument("--pictures", type=int, default=500)
    p.add_argument("--pages", type=int, default=100)
    p.add_argument(
        "--latency-ms",
        type=number_list(int, example="0,150", allow_zero=True),
        default=[150],
        help="per request, e.g. 0,150",
    )
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--json", metavar="FILE", help="write the results as JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    t0 = time.perf_counter()

    def progress(msg: str) -> None:
        print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)

    progress(f"site: {args.pictures} pictures, {args.pages} pages")
    site = site_folder(args.pictures, args.pages, args.seed)
    summary = json.loads((site / ".complete.json").read_text("utf-8"))
    results = []
    for latency in args.latency_ms:
        progress(f"library at {latency} ms per request")
        results.append(measure(site, latency))
    print(table(summary, results))
    if args.json:
        Path(args.json).write_text(
            json.dumps({"site": summary, "results": results}, indent=2, ensure_ascii=False),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["probe"]:
        sys.exit(probe(*sys.argv[2:5]))
    sys.exit(main(sys.argv[1:]))
