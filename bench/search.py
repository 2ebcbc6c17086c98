"""``python -m bench search [--docs N] [--size-kb K] [--runs R] [--changed C] [--json FILE]``:
search across every page (``modu_desktop.core.search``) on a generated brochure.

N realistic Korean pages of about K KB each (front matter, a top banner, headings, paragraphs
with bold, links and codes, lists, quotes, tables, brochure blocks, notes) are served by a
sandbox in its own process. The document list is read twice (the second time from a warm blob
cache, as after any list refresh), the search index is built from the cache, and a set of
queries (:data:`QUERIES`: common and rare words, a phone number, Latin words with and without
case, whole words) is run R times each. Reported: median and p95 milliseconds per query over
all runs, per query its median and hits, the requests the sandbox saw during the searches
(must be 0), the index's build time and memory, its build at a later start (from the pages
kept on disk), and a refresh after C pages changed (only those are read again). Target: ≤ 50
ms per query. Numbers: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.gen import BLOCKS, NOUNS, TOPICS, paragraph, sentence
from bench.server import BRANCH, NAME, OURS, OWNER, SandboxHandle
from modu_desktop.core.brochure.themes import LAYOUT_KEYS, THEME_KEYS

TARGET_MS = 50.0

QUERIES: tuple[tuple[str, bool, bool], ...] = (
    # (words, whole word, case-sensitive)
    ("2025학년도", False, False),
    ("학년도", False, False),
    ("캡스톤 디자인", False, False),
    ("051-510", False, False),
    ("student success", False, False),
    ("Student Success", False, True),
    ("협력 기업", True, False),
    ("해커톤", True, False),
    ("멘토링", False, False),
    ("지속 가능한 지역 상생", False, False),
    ("교수진과 함께", False, False),
    ("없는낱말", False, False),
)


# ----------------------------------------------------------------------------- the pages
def _prose(rng: random.Random) -> str:
    """A paragraph as staff write one: sentences, a year in bold, a link, a phone number."""
    parts = [sentence(rng) + "." for _ in range(rng.randint(2, 4))]
    extra = rng.choice(
        (
            f"**2025**학년도 {rng.choice(TOPICS)} 신청은 "
            f"[안내 페이지](/docs/apply-{rng.randint(1, 99)})에서 받습니다.",
            f"문의: 학생지원팀 051-510-{rng.randint(1000, 9999)} (평일 09:00~18:00).",
            f"`{rng.choice(('AI-101', 'SW-204', 'DS-310'))}` 과목은 Student Success 센터와 함께 "
            "운영합니다.",
            f"2025학년도에는 *{rng.choice(TOPICS)}* 과정을 새로 엽니다.",
        )
    )
    parts.insert(rng.randint(0, len(parts)), extra)
    return " ".join(parts)


def _section(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return f"## {rng.choice(TOPICS)}\n\n{_prose(rng)}\n\n{paragraph(rng, 2)}\n"
    if kind == 1:
        items = "\n".join(f"- {sentence(rng)}" for _ in range(rng.randint(3, 5)))
        return f"### {rng.choice(TOPICS)} 세부 내용\n\n{items}\n"
    if kind == 2:
        return f"> {sentence(rng)}.\n> — {rng.choice(NOUNS)} 인터뷰 중에서\n"
    if kind == 3:
        rows = "\n".join(
            f"| {rng.choice(TOPICS)} | {rng.randint(10, 80)}명 | 2025학년도 {q}학기 |"
            for q in (1, 2, 2)
        )
        return f"| 과정 | 정원 | 시기 |\n|---|---|---|\n{rows}\n"
    if kind == 4:
        return f":::note\n{sentence(rng)}. 자세한 일정은 추후 공지합니다.\n:::\n"
    return rng.choice(BLOCKS)(rng)


def page(rng: random.Random, index: int, doc_id: str, target_bytes: int) -> str:
    topic = rng.choice(TOPICS)
    title = f"{topic} 안내 {index:04d}"
    head = (
        f"---\nid: {doc_id}\ntitle: {title}\nsidebar_position: {index}\nnav_label: {topic}\n"
        f"theme: {rng.choice(THEME_KEYS)}\nlayout: {rng.choice(LAYOUT_KEYS)}\n"
        f"description: 2025학년도 {sentence(rng)}\n---\n\n"
        f":::hero\nbadge: 2025학년도 · {topic}\ntitle: {title}\n"
        f"description: {sentence(rng)}\n:::\n"
    )
    parts = [head]
    size = len(head.encode())
    while size < target_bytes:
        part = _section(rng)
        parts.append(part)
        size += len(part.encode()) + 1
    return "\n".join(parts)


def generate(root: Path, n_docs: int, target_bytes: int, seed: int = 31) -> int:
    """Write ``root/docs/NNNN-pageN.md``; returns the total size in bytes."""
    rng = random.Random(seed)
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(1, n_docs + 1):
        doc_id = f"{i:04d}-page{i}"
        data = page(rng, i, doc_id, target_bytes).encode()
        (docs / f"{doc_id}.md").write_bytes(data)
        total += len(data)
    return total


# ------------------------------------------------------------------------------ measuring
def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(0.95 * len(ordered)) - 1))]


async def _measure(handle: SandboxHandle, runs: int, changed: int, cache: Path) -> dict[str, Any]:
    from modu_desktop.core.documents.store import DocumentStore
    from modu_desktop.core.github.client import GitHubClient, RepoRef
    from modu_desktop.core.search.index import SearchIndex
    from modu_desktop.core.search.kept import KeptPages
    from modu_desktop.core.search.model import SearchOptions

    repo = RepoRef(OWNER, NAME, BRANCH)
    async with GitHubClient(handle.api_url, OURS.token, repo) as client:
        store = DocumentStore(client, cache)
        await store.refresh()  # fills the blob cache
        snap = await store.refresh()  # a warm list refresh: what the search starts from
        index = SearchIndex(store.cache.get, KeptPages(cache / "search"))
        t0 = time.perf_counter()
        built = index.update(snap.docs)
        build_ms = (time.perf_counter() - t0) * 1000
        # a later start: the same pages, read back as this run kept them
        t0 = time.perf_counter()
        later = SearchIndex(store.cache.get, KeptPages(cache / "search")).update(snap.docs)
        later_ms = (time.perf_counter() - t0) * 1000

        first_exact_ms = None
        per_query: list[dict[str, Any]] = []
        every: list[float] = []
        handle.reset_stats()
        for words, whole, exact in QUERIES:
            options = SearchOptions(case_sensitive=exact, whole_word=whole)
            t0 = time.perf_counter()
            found = index.search(words, options)  # untimed in the figures: see first_exact_ms
            if exact and first_exact_ms is None:
                first_exact_ms = (time.perf_counter() - t0) * 1000
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                found = index.search(words, options)
                times.append((time.perf_counter() - t0) * 1000)
            every.extend(times)
            per_query.append(
                {
                    "query": words,
                    "whole_word": whole,
                    "case_sensitive": exact,
                    "hits": found.total,
                    "pages": found.page_total,
                    "listed": found.shown,
                    "median_ms": round(statistics.median(times), 2),
                    "max_ms": round(max(times), 2),
                }
            )
        requests = handle.total()

        # C pages change on the branch: the next refresh reads those again, nothing else
        for doc in snap.docs[:changed]:
            loaded = await store.load(doc.doc_id)
            new = loaded.text + f"\n바뀐 문단 {doc.doc_id}: 2026학년도 안내.\n"
            await client.put_file(doc.path, new.encode(), "bench: change", sha=loaded.sha)
        again = await store.refresh()
        t0 = time.perf_counter()
        refreshed = index.update(again.docs)
        refresh_ms = (time.perf_counter() - t0) * 1000

        tracemalloc.start()
        measured = SearchIndex(store.cache.get, KeptPages(cache / "search"))
        measured.update(again.docs)
        memory, _peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return {
        "documents": len(snap.docs),
        "index_build_ms": round(build_ms, 1),
        "index_pages_read": built.read,
        "index_memory_mb": round(memory / 1e6, 1),
        "index_later_start_ms": round(later_ms, 1),
        "index_later_start_loaded": later.loaded,
        "refresh_after_changes": {
            "changed": changed,
            "pages_read": refreshed.read,
            "pages_kept": refreshed.kept,
            "ms": round(refresh_ms, 1),
        },
        "first_case_sensitive_ms": None if first_exact_ms is None else round(first_exact_ms, 1),
        "runs_per_query": runs,
        "median_ms": round(statistics.median(every), 2),
        "p95_ms": round(_p95(every), 2),
        "max_ms": round(max(every), 2),
        "requests_during_searches": requests,
        "queries": per_query,
        "target_ms": TARGET_MS,
        "met": _p95(every) <= TARGET_MS and requests == 0,
    }


def table(result: dict[str, Any]) -> str:
    refresh = result["refresh_after_changes"]
    out = [
        f"\n### Search: {result['documents']} documents of ~{result['size_kb']} KB "
        f"({result['total_mb']} MB), warm cache, {result['runs_per_query']} runs per query\n",
        f"Per query: median {result['median_ms']} ms, p95 {result['p95_ms']} ms, "
        f"max {result['max_ms']} ms (target ≤ {TARGET_MS:g} ms: "
        f"{'met' if result['met'] else 'MISSED'}); requests during the searches: "
        f"{result['requests_during_searches']}.",
        f"Index: built in {result['index_build_ms']:.0f} ms ({result['index_pages_read']} pages "
        f"read), {result['index_memory_mb']} MB; at a later start, from the pages kept on disk, "
        f"in {result['index_later_start_ms']:.0f} ms; after {refresh['changed']} pages changed, a "
        f"refresh read {refresh['pages_read']} pages in {refresh['ms']:.0f} ms; the first "
        "case-sensitive search "
        f"prepared its text in {result['first_case_sensitive_ms']} ms.",
        "",
        "| query | whole word | case | hits (pages) | median ms | max ms |",
        "|---|---|---|---|---|---|",
    ]
    for q in result["queries"]:
        out.append(
            f"| {q['query']} | {'yes' if q['whole_word'] else '–'} | "
            f"{'exact' if q['case_sensitive'] else 'any'} | {q['hits']:,} ({q['pages']}) | "
            f"{q['median_ms']} | {q['max_ms']} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench search", description=__doc__)
    p.add_argument("--docs", type=int, default=1000, help="documents (1000)")
    p.add_argument("--size-kb", type=float, default=5.0, help="size of each document (5)")
    p.add_argument("--runs", type=int, default=20, help="runs per query (20)")
    p.add_argument("--changed", type=int, default=10, help="pages changed before a refresh")
    p.add_argument("--json", metavar="FILE", help="write the result as JSON")
    args = p.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="modu-bench-search-"))
    try:
        total = generate(root / "seed", max(1, args.docs), int(args.size_kb * 1000))
        with SandboxHandle(root / "seed", 0) as handle:
            result = asyncio.run(
                _measure(handle, max(1, args.runs), max(0, args.changed), root / "cache")
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    result["size_kb"] = args.size_kb
    result["total_mb"] = round(total / 1e6, 2)
    result["command"] = "python -m bench search " + " ".join(sys.argv[2:] if argv is None else argv)
    print(table(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, ensure_ascii=False), "utf-8")
        print(f"JSON written to {args.json}", file=sys.stderr)
    return 0
