"""``python -m bench replace [--docs N] [--others M] [--size-kb K] [--latency-ms MS]
[--json FILE]``: a replacement across pages (``modu_desktop.core.search.apply``,
``modu_desktop.core.changes.send``) on a generated brochure, counted by the sandbox.

N Korean pages of about K KB that each say "2025학년도" several times (front matter, banner,
paragraphs, tables), and M pages that do not, are served by a sandbox in its own process. From
a cold start (empty blob cache) the list is read, the search index built, the replacement
"2025학년도" → "2026학년도" planned over the pages with hits and checked by the publish check on
every changed page, then sent as ONE commit through the Git Data API. Reported: the requests
the sandbox answered for the change itself and from the cold start on (targets: 1 commit,
≤ 55 requests), the commits made, the hits and pages changed, the time of each step, and what
the web admin reads afterwards through the Contents API, page by page (every page must read
the new text). Numbers: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.search import page
from bench.server import BRANCH, NAME, OURS, OWNER, SandboxHandle

TARGET_REQUESTS = 55
OLD, NEW = "2025학년도", "2026학년도"


def generate(root: Path, n_docs: int, others: int, target_bytes: int, seed: int = 55) -> None:
    """``root/docs/NNNN-pageN.md``: ``n_docs`` pages that say OLD, then ``others`` that do
    not."""
    rng = random.Random(seed)
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for i in range(1, n_docs + others + 1):
        doc_id = f"{i:04d}-page{i}"
        text = page(rng, i, doc_id, target_bytes)
        if i > n_docs:
            text = text.replace("2025학년도", "올해").replace("**2025**학년도", "올해")
        (docs / f"{doc_id}.md").write_bytes(text.encode())


async def _web_admin_reads(api_url: str, token: str, texts: dict[str, str]) -> int:
    """How many pages the web admin reads with the new text: its own requests (the Contents
    API, one page at a time), nothing of our client."""
    headers = {"Authorization": f"token {token}", "Accept": "application/vnd.github+json"}
    same = 0
    async with httpx.AsyncClient(base_url=api_url, headers=headers, timeout=30) as http:
        for path, text in texts.items():
            r = await http.get(f"/repos/{OWNER}/{NAME}/contents/{path}", params={"ref": BRANCH})
            r.raise_for_status()
            body = base64.b64decode(r.json()["content"].replace("\n", ""))
            same += body.decode("utf-8") == text
    return same


async def _measure(handle: SandboxHandle, cache: Path) -> dict[str, Any]:
    from modu_desktop.core.changes.send import send_change
    from modu_desktop.core.github.client import GitHubClient, RepoRef
    from modu_desktop.core.search.apply import plan_across_pages, prepare_replace
    from modu_desktop.core.search.index import SearchIndex
    from modu_desktop.core.workspace import Workspace

    repo = RepoRef(OWNER, NAME, BRANCH)
    async with GitHubClient(handle.api_url, OURS.token, repo) as client:
        ws = Workspace.build(client, OURS.login, "bench-replace", cache_dir=cache, install_id="b")
        handle.reset_stats()
        t0 = time.perf_counter()
        snap = await ws.store.refresh()
        index = SearchIndex(ws.store.cache.get)
        index.update(snap.docs)
        listed = time.perf_counter()
        plan = await plan_across_pages(index, ws.locks, snap.locks, OLD, NEW)
        planned = time.perf_counter()
        paths = {d.path for d in snap.docs} | {e.path for e in snap.images}
        prepared = prepare_replace(plan, repo_paths=paths)
        checked = time.perf_counter()
        before = handle.stats()
        outcome = await send_change(client, prepared, ws.editor, read_blob=ws.store.read_blob)
        sent = time.perf_counter()
        after = handle.stats()
        texts = {p.path: p.text for p in outcome.pages if p.text is not None}
        seen = await _web_admin_reads(handle.api_url, OURS.token, texts)
    by_method = {
        m: after["by_method"].get(m, 0) - before["by_method"].get(m, 0)
        for m in after["by_method"]
        if after["by_method"].get(m, 0) != before["by_method"].get(m, 0)
    }
    change_requests = after["total"] - before["total"]
    return {
        "documents": len(snap.docs),
        "pages_with_hits": len(plan.pages),
        "hits": sum(len(p.hits) for p in plan.pages),
        "hits_replaced": plan.replaced,
        "pages_changed": len(outcome.pages),
        "pages_left_out": len(outcome.left_out),
        "commits": 1 if outcome.commit_sha else 0,
        "state": outcome.state.value,
        "requests_for_the_change": change_requests,
        "requests_by_method": by_method,
        "requests_from_cold_start": after["total"],
        "list_ms": round((listed - t0) * 1000, 1),
        "plan_ms": round((planned - listed) * 1000, 1),
        "publish_check_ms": round((checked - planned) * 1000, 1),
        "commit_ms": round((sent - checked) * 1000, 1),
        "web_admin_reads_new_text": seen,
        "target_requests": TARGET_REQUESTS,
        "met": bool(outcome.commit_sha)
        and change_requests <= TARGET_REQUESTS
        and seen == len(outcome.pages) == len(plan.pages),
    }


def table(result: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"\n### Replace “{OLD}” → “{NEW}” in {result['pages_changed']} pages "
            f"({result['documents']} documents of ~{result['size_kb']} KB, "
            f"{result['latency_ms']} ms per request)\n",
            f"{result['commits']} commit; the change took {result['requests_for_the_change']} "
            f"requests ({result['requests_by_method']}), {result['requests_from_cold_start']} "
            f"from a cold start with the list (target ≤ {TARGET_REQUESTS}: "
            f"{'met' if result['met'] else 'MISSED'}); {result['hits_replaced']} of "
            f"{result['hits']} places replaced, {result['pages_left_out']} pages left out.",
            f"Steps: list and index {result['list_ms']:.0f} ms, plan {result['plan_ms']:.0f} ms, "
            f"publish check {result['publish_check_ms']:.0f} ms, commit "
            f"{result['commit_ms']:.0f} ms. The web admin reads the new text on "
            f"{result['web_admin_reads_new_text']} of {result['pages_changed']} pages.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench replace", description=__doc__)
    p.add_argument("--docs", type=int, default=50, help="pages that say 2025학년도 (50)")
    p.add_argument("--others", type=int, default=50, help="pages that do not (50)")
    p.add_argument("--size-kb", type=float, default=5.0, help="size of each page (5)")
    p.add_argument("--latency-ms", type=int, default=0, help="per request (0)")
    p.add_argument("--json", metavar="FILE", help="write the result as JSON")
    args = p.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="modu-bench-replace-"))
    try:
        generate(root / "seed", max(1, args.docs), max(0, args.others), int(args.size_kb * 1000))
        with SandboxHandle(root / "seed", max(0, args.latency_ms)) as handle:
            result = asyncio.run(_measure(handle, root / "cache"))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    result["size_kb"] = args.size_kb
    result["latency_ms"] = args.latency_ms
    result["command"] = "python -m bench replace " + " ".join(
        sys.argv[2:] if argv is None else argv
    )
    print(table(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, ensure_ascii=False), "utf-8")
        print(f"JSON written to {args.json}", file=sys.stderr)
    return 0 if result["met"] else 1
