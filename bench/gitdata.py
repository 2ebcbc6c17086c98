"""Request figures of the git database paths, counted by the sandbox (no timing targets):

* ``save_conflict_reads_before_question`` — our save meets another person's save (GitHub's 409):
  the reads the sandbox answered before the conflict screen would ask (``SaveService.save`` →
  ``resolve_conflict`` up to its question), and the requests in all.
* ``changes`` — up to 50 pages changed in one commit through the Git Data API
  (``core/changes``): requests, writes, commits made, wall time.
* ``blob_cache`` — the disk cache after the first list of all the documents, and after a
  prune once the scenarios above changed pages (the versions they read are old ones then;
  young, so kept within the bounds).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.server import BRANCH, NAME, OTHER, OURS, OWNER, SandboxHandle
from modu_desktop.core.changes.apply import Editor, apply_changes
from modu_desktop.core.changes.model import ChangeSet
from modu_desktop.core.documents.store import SaveConflict, path_for_doc_id
from modu_desktop.core.github.blobcache import CacheUsage
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.saving.conflicts import Conflict, ConflictDecision, resolve_conflict
from modu_desktop.core.workspace import Workspace

CHANGED_PAGES = 50


def _gets(sb: SandboxHandle) -> int:
    return int(sb.stats().get("by_method", {}).get("GET", 0))


def _usage(u: CacheUsage) -> dict[str, int]:
    return {"files": u.files, "bytes": u.bytes, "disk_bytes": u.disk_bytes}


def _workspace(url: str, login: str, token: str, cache: Path) -> Workspace:
    client = GitHubClient(url, token, RepoRef(OWNER, NAME, BRANCH))
    return Workspace.build(client, login, f"bench-{login}", cache_dir=cache, install_id="bench")


async def measure_gitdata(sb: SandboxHandle, doc_ids: list[str]) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix="modu-bench-gitdata-"))
    ours = _workspace(sb.api_url, OURS.login, OURS.token, root / "ours")
    other = _workspace(sb.api_url, OTHER.login, OTHER.token, root / "other")
    try:
        snap = await ours.store.refresh()
        listed = _usage(await _settled_usage(ours))
        conflict = await _save_conflict(sb, ours, other, doc_ids[0])
        now = await ours.store.refresh()
        changes = await _changes(sb, ours, list(now.docs[:CHANGED_PAGES]))
        await ours.store.refresh()
        # What the background prune after a refresh does (it runs at most once an hour, and
        # this store's first one ran after the first list).
        report = await ours.store.prune_cache()
        return {
            "save_conflict": conflict,
            "save_conflict_reads_before_question": conflict["reads_before_question"],
            "changes": changes,
            "blob_cache": {
                "docs": len(snap.docs),
                "after_first_list": listed,
                "after_prune": _usage(report.left) if report is not None else None,
                "removed_by_prune": report.removed if report is not None else None,
                "bounds": {
                    "max_bytes": ours.store.cache_bounds.max_bytes,
                    "max_age_s": ours.store.cache_bounds.max_age_s,
                },
            },
        }
    finally:
        await ours.client.aclose()
        await other.client.aclose()
        shutil.rmtree(root, ignore_errors=True)


async def _settled_usage(ws: Workspace) -> CacheUsage:
    if ws.store.pruning is not None:
        await ws.store.pruning  # the first list's prune (nothing old yet)
    return ws.store.cache.usage()


async def _save_conflict(
    sb: SandboxHandle, ours: Workspace, other: Workspace, doc_id: str
) -> dict[str, Any]:
    path = path_for_doc_id(doc_id)
    base = await ours.store.load(doc_id)
    theirs = await other.store.save(
        doc_id, base.text + "\n다른 사람의 문장\n", base.sha, OTHER.login
    )
    assert not isinstance(theirs, SaveConflict), theirs
    asked: list[int] = []

    async def ask(conflict: Conflict) -> ConflictDecision:
        asked.append(_gets(sb))
        return ConflictDecision.CANCEL

    sb.reset_stats()
    t = time.perf_counter()
    found = await ours.saves.save(path, base.text + "\n내 문장\n", base.sha, OURS.login)
    assert isinstance(found, SaveConflict), found
    await resolve_conflict(ours.saves, found, ask, login=OURS.login)
    wall = time.perf_counter() - t
    stats = sb.stats()
    return {
        "reads_before_question": asked[0],
        "requests": int(stats["total"]),
        "routes": {k.replace("/repos/{owner}/{repo}", ""): v for k, v in stats["by_route"].items()},
        "wall_ms": round(wall * 1000, 1),
    }


async def _changes(sb: SandboxHandle, ours: Workspace, docs: list[Any]) -> dict[str, Any]:
    texts = await ours.store.fetch_blobs(d.sha for d in docs)
    changes = ChangeSet()
    for d in docs:
        changes.write(d.path, texts[d.sha] + "\n2026학년도 안내\n".encode(), d.sha)
    sb.reset_stats()
    t = time.perf_counter()
    res = await apply_changes(ours.client, changes, Editor(OURS.login, "bench-ours"))
    wall = time.perf_counter() - t
    stats = sb.stats()
    by_method = stats.get("by_method", {})
    return {
        "files": len(docs),
        "committed": len(res.committed),
        "left_out": len(res.left_out),
        "commits": 1 if res.commit_sha else 0,
        "attempts": res.attempts,
        "requests": int(stats["total"]),
        "writes": sum(n for m, n in by_method.items() if m != "GET"),
        "wall_ms": round(wall * 1000, 1),
    }


def evaluate_gitdata(g: dict[str, Any], cfg: str) -> list[dict[str, Any]]:
    """The targets of these figures, in `runner.evaluate`'s shape."""
    ch, bc = g["changes"], g["blob_cache"]
    after = bc["after_prune"] or bc["after_first_list"]
    return [
        {
            "target": "a save's 409: ≤ 3 reads before the conflict question",
            "config": cfg,
            "value": f"{g['save_conflict_reads_before_question']} reads, "
            f"{g['save_conflict']['requests']} requests in all",
            "limit": "3",
            "met": g["save_conflict_reads_before_question"] <= 3,
            "note": "",
        },
        {
            "target": f"{ch['files']} pages in one commit ≤ {ch['files'] + 5} requests",
            "config": cfg,
            "value": f"{ch['requests']} requests ({ch['writes']} writes), {ch['commits']} commit, "
            f"{ch['wall_ms']:.0f} ms",
            "limit": f"{ch['files'] + 5} requests, 1 commit",
            "met": ch["requests"] <= ch["files"] + 5 and ch["commits"] == 1,
            "note": "",
        },
        {
            "target": f"blob cache on disk at {bc['docs']} documents (reported)",
            "config": cfg,
            "value": f"{after['disk_bytes'] / 1048576:.1f} MB on disk, {after['files']} files "
            f"(first list {bc['after_first_list']['disk_bytes'] / 1048576:.1f} MB)",
            "limit": f"≤ {bc['bounds']['max_bytes'] // 1048576} MB besides the current tree",
            "met": None,
            "note": "",
        },
    ]
