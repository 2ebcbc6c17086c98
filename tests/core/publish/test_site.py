"""Where a document is published (Docusaurus slugs, GitHub Pages) and the one-way deploy state."""

from __future__ import annotations

from dataclasses import dataclass

import httpx
import pytest

from modu_desktop.core.publish.deploy import DeployState, DeployTracker
from modu_desktop.core.publish.site import (
    doc_slug,
    page_url,
    site_base_url,
    strip_number_prefix,
)
from tests.helpers.paths import SAMPLE_REPO


@pytest.mark.parametrize(
    ("path", "fm", "slug"),
    [
        ("docs/01-intro.md", {}, "intro"),
        ("docs/02-part-2.md", {"id": "part-2"}, "part-2"),
        ("docs/99-template.md", {"id": "template"}, "template"),
        ("docs/05-x.md", {"id": "전공교육"}, "전공교육"),
        ("docs/intro.md", {}, "intro"),
        ("docs/2021-01-01-news.md", {}, "2021-01-01-news"),
        ("docs/1.2.3-notes.md", {}, "1.2.3-notes"),
        ("docs/10_guide.mdx", {}, "guide"),
        ("docs/01-intro.md", {"slug": "/welcome", "id": "intro"}, "welcome"),
        ("docs/01-intro.md", {"slug": "hello"}, "hello"),
        ("docs/02-guides/03-setup.md", {}, "guides/setup"),
        ("docs/guides/index.md", {}, "guides"),
    ],
)
def test_slug_follows_docusaurus(path: str, fm: dict[str, str], slug: str) -> None:
    assert doc_slug(path, fm) == slug


def test_fixture_documents_get_the_real_sites_addresses() -> None:
    """The real site's build: docs/01-intro.md → /docs/intro, every part by its id."""

    from modu_desktop.core.brochure.blocks import split_front_matter

    docs = SAMPLE_REPO / "docs"
    slugs = {}
    for f in sorted(docs.glob("*.md")):
        fm, _ = split_front_matter(f.read_text(encoding="utf-8"))
        slugs[f.name] = doc_slug(f"docs/{f.name}", fm.values)
    assert slugs["01-intro.md"] == "intro"
    assert slugs["02-part-2.md"] == "part-2"
    assert slugs["99-template.md"] == "template"


def test_number_prefix() -> None:
    assert strip_number_prefix("01-intro") == "intro"
    assert strip_number_prefix("01 - intro") == "intro"
    assert strip_number_prefix("intro") == "intro"
    assert strip_number_prefix("007") == "007"


def test_github_pages_address_of_the_real_repository() -> None:
    base = site_base_url("https://api.github.com", "pnuai", "PNU-Modu")
    assert base == "https://pnuai.github.io/PNU-Modu/"
    assert page_url(base, doc_slug("docs/01-intro.md")) == (
        "https://pnuai.github.io/PNU-Modu/docs/intro"
    )
    assert page_url(base, "전공") == "https://pnuai.github.io/PNU-Modu/docs/%EC%A0%84%EA%B3%B5"


def test_document_page_url_reads_the_front_matter() -> None:
    from modu_desktop.core.publish.site import document_page_url

    text = "\ufeff---\r\nid: part-2\r\ntitle: 둘\r\n---\r\n본문"
    assert document_page_url(
        "https://api.github.com", "pnuai", "PNU-Modu", "docs/02-x.md", text
    ) == ("https://pnuai.github.io/PNU-Modu/docs/part-2")
    assert document_page_url(
        "https://api.github.com", "pnuai", "PNU-Modu", "docs/01-intro.md", "글"
    ) == ("https://pnuai.github.io/PNU-Modu/docs/intro")


def test_sandbox_and_enterprise_addresses() -> None:
    assert site_base_url("http://127.0.0.1:8765", "pnuai", "PNU-Modu") == (
        "http://127.0.0.1:8765/_sandbox/site/"
    )
    assert site_base_url("https://ghe.example.com/api/v3", "o", "n") is None


@dataclass
class Run:
    status: str | None
    conclusion: str | None = None


# The deploy state machine is core/publish/deploy.py's (one for the status bar and the editor's
# line);
# these are the same walks as before, on it.


def test_state_never_moves_backwards() -> None:
    t = DeployTracker("abc")
    seen = [t.state]
    for runs in (
        [],
        [Run("queued")],
        [Run("in_progress")],
        [],  # the runs API lost it for a moment
        [Run("queued")],  # a stale answer
        [Run("completed", "success")],
        [Run("in_progress")],
        [Run("completed", "failure")],
    ):
        seen.append(t.observe(runs))
    ranks = [s.rank for s in seen]
    assert ranks == sorted(ranks)
    assert seen[-1] is DeployState.PUBLISHED
    f = DeployTracker("abc")
    assert f.observe([Run("completed", "failure")]) is DeployState.FAILED
    assert f.observe([Run("completed", "success")]) is DeployState.FAILED
    assert f.run is not None and f.run.conclusion == "failure"


def test_each_step_is_reported_once_and_a_final_state_ends_it() -> None:
    answers = [
        [],
        [Run("queued")],
        [Run("in_progress")],
        [Run("queued")],
        [Run("completed", "success")],
    ]
    t = DeployTracker("abc")
    seen = [t.state]
    for runs in answers:
        if t.observe(runs) is not seen[-1]:
            seen.append(t.state)
    assert t.state.final
    assert seen == [DeployState.WAITING, DeployState.BUILDING, DeployState.PUBLISHED]


def test_without_access_or_without_a_run_the_state_is_unknown() -> None:
    t = DeployTracker("x")
    assert t.unavailable() is DeployState.UNKNOWN  # the runs cannot be read (no permission)
    t = DeployTracker("x", give_up_after_s=180)
    assert t.observe([], elapsed_s=60) is DeployState.WAITING
    assert t.observe([], elapsed_s=240) is DeployState.UNKNOWN  # no workflow run at all


def test_sandbox_serves_the_published_page(sandbox) -> None:
    base = site_base_url(sandbox.api_url, sandbox.owner, sandbox.name)
    assert base is not None
    with httpx.Client() as c:
        r = c.get(page_url(base, "welcome"))
        assert r.status_code == 200
        assert "text/html" in r.headers["content-type"]
        from modu_desktop.core.preview import render_preview

        text = (sandbox.read_file("docs/01-welcome.md") or b"").decode("utf-8")
        assert r.text == render_preview(text, theme="public-blue")
        assert c.get(page_url(base, "no-such-page")).status_code == 404
