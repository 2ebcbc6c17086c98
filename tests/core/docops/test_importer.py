"""core.importer: pre-filling from .md files, conflicts, creating through DocOps."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.docops.importer import (
    check_candidates,
    import_candidates,
    parse_candidate,
    read_candidates,
)
from modu_desktop.core.docops.ops import DocOps, OpCode
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager
from tests.helpers.paths import SAMPLE_REPO

REPO = RepoRef("pnuai", "PNU-Modu", "main")
FIXTURES = SAMPLE_REPO / "docs"


async def _no_sleep(_: float) -> None:
    return None


def test_prefill_from_front_matter() -> None:
    data = (
        "\ufeff---\r\nid: bootcamp\r\ntitle: 부트캠프\r\nnav-label: 캠프\r\n"
        "sidebar_position: 12\r\ntheme: ocean-cyan\r\nlayout: slim\r\nhide_title: true\r\n"
        "---\r\n\r\n본문\r\n"
    ).encode()
    c = parse_candidate("/tmp/whatever.md", data)
    assert c.request is not None and c.conflict is None
    r = c.request
    assert (r.doc_id, r.title, r.nav_label, r.position, r.theme, r.layout) == (
        "bootcamp",
        "부트캠프",
        "캠프",
        12,
        "ocean-cyan",
        "slim",
    )
    assert r.path == "docs/12-bootcamp.md"
    out = r.render()
    assert "hide_title: true" in out and out.endswith("\r\n본문\r\n")


def test_prefill_from_file_name_and_heading() -> None:
    c = parse_candidate("C:\\Users\\me\\03-news.md", "# 새 소식\n\n내용\n".encode())
    assert c.request is not None
    assert (c.request.doc_id, c.request.position, c.request.title) == ("news", 3, "새 소식")
    assert c.notes  # the title was guessed
    text = c.request.render()
    fm = frontmatter.parse(text)
    assert fm.get("id") == "news" and fm.get_int("sidebar_position") == 3
    assert fm.body.endswith("# 새 소식\n\n내용\n")


def test_prefill_fixes_and_notes() -> None:
    data = b"---\nid: My Page\ntitle: T\ntheme: neon\nlayout: grid\nsidebar_position: 2.5\n---\nx\n"
    c = parse_candidate("p.md", data)
    assert c.request is not None
    assert c.request.doc_id == "My-Page" and c.request.theme == "public-blue"
    assert c.request.layout == "cinema" and c.request.position == 2
    assert len(c.notes) == 4
    cp949 = parse_candidate("k.md", "---\ntitle: 한글\n---\n".encode("cp949"))
    assert cp949.request is not None and cp949.request.title == "한글"
    assert "CP949" in cp949.notes[0].en
    assert parse_candidate("x.txt", b"hi").conflict is not None
    assert parse_candidate("bin.md", b"\xff\xfe\x00\x00\x00").conflict is not None


def test_fixture_files_parse() -> None:
    cands = read_candidates(sorted(FIXTURES.glob("*.md")))
    assert len(cands) == 9
    for c in cands:
        assert c.request is not None, c.conflict
        assert c.request.title
    by = {Path(c.source).name: c.request for c in cands}
    assert by["01-intro.md"] is not None and by["01-intro.md"].position is not None


def test_conflicts_and_import(sandbox: Any, tmp_path: Path) -> None:
    files = {
        "welcome.md": "---\nid: welcome\ntitle: dup id\n---\n",
        "02-programs.md": "---\nid: programs\ntitle: dup file\nsidebar_position: 2\n---\n",
        "a-news.md": "---\nid: news\ntitle: 소식\nsidebar_position: 20\n---\n\n본문\n",
        "b-news.md": "---\nid: news\ntitle: 소식 again\nsidebar_position: 21\n---\n",
        "faq.md": "# FAQ\n",
    }
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(tmp_path / name)

    async def go() -> Any:
        async with GitHubClient(sandbox.api_url, "tok-editor1", REPO, sleep=_no_sleep) as gh:
            ops = DocOps(
                DocumentStore(gh, tmp_path / "blobs"),
                LockManager(gh, "editor1", "s1", gh.clock, install_id="h"),
                "editor1",
            )
            cands = read_candidates(paths)
            snap = await ops.store.refresh()
            checked = check_candidates(cands, snap)
            results = await import_candidates(ops, cands)
            return checked, results

    checked, results = asyncio.run(go())
    by = {Path(c.source).name: c for c in checked}
    assert by["welcome.md"].conflict is not None and "already used" in by["welcome.md"].conflict.en
    assert by["02-programs.md"].conflict is not None
    assert by["02-programs.md"].conflict_path == "docs/02-programs.md"
    assert by["a-news.md"].ok
    assert by["b-news.md"].conflict is not None and "a-news.md" in by["b-news.md"].conflict.en
    assert by["faq.md"].ok
    codes = {Path(c.source).name: r.code for c, r in results}
    assert codes == {
        "welcome.md": OpCode.EXISTS,
        "02-programs.md": OpCode.EXISTS,
        "a-news.md": OpCode.CREATED,
        "b-news.md": OpCode.EXISTS,
        "faq.md": OpCode.CREATED,
    }
    assert sandbox.read_file("docs/20-news.md").decode().endswith("\n본문\n")
    assert sandbox.read_file("docs/faq.md") is not None
    msgs = [c["message"].strip() for c in sandbox.commits()[:6]]
    assert "feat(docs): create 20-news.md by @editor1" in msgs
    assert "feat(docs): create faq.md by @editor1" in msgs
    assert sandbox.read_file(".locks/20-news.lock.json") is None
