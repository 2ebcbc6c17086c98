"""The site's own look read from the repository (git database, blobs by sha, cached)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.blobcache import BlobCache
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.preview import load_site_style, render_preview, style_from_checkout
from modu_desktop.core.preview.site_style import parse_layouts, parse_palettes
from tests.helpers.paths import SITE_FIXTURE

REPO = RepoRef("pnuai", "PNU-Modu", "main")
BLOCKS = "src/components/BrochureBlocks/blocks.css"
THEMES = "src/components/BrochureBlocks/ThemeContext.js"


async def _no_sleep(_: float) -> None:
    return None


def test_palettes_and_layouts_of_the_real_site() -> None:
    src = SITE_FIXTURE / "src" / "components"
    palettes = parse_palettes((src / "BrochureBlocks" / "ThemeContext.js").read_text("utf-8"))
    assert list(palettes) == [
        "public-blue",
        "teal-green",
        "royal-purple",
        "burgundy-gold",
        "startup-gradient",
        "minimal-light",
        "ocean-cyan",
    ]
    assert palettes["public-blue"]["primary"] == "#1565c0"
    assert palettes["minimal-light"]["borderCard"] == "1px solid #e4e4e7"
    assert palettes["teal-green"]["heroBg"].startswith("linear-gradient(160deg, #154d30")
    layouts = parse_layouts((src / "LayoutSettings.js").read_text("utf-8"))
    assert layouts == {
        "slim": "750px",
        "compact": "960px",
        "standard": "1260px",
        "poster": "1560px",
        "cinema": "1860px",
    }


def test_real_site_style_goes_into_the_page_in_bundle_order() -> None:
    style = style_from_checkout(SITE_FIXTURE)
    assert style.source == "repository"
    html = render_preview("---\ntheme: ocean-cyan\n---\n# x\n", style=style)
    order = [html.index(f'data-sheet="{n}"') for n in ("infima", "base", "src/css/custom.css")]
    assert order == sorted(order) and html.index(f'data-sheet="{BLOCKS}"') > order[-1]
    assert "--theme-primary: #153d63" in html and 'data-brochure-theme="ocean-cyan"' in html
    assert html.index('data-sheet="fonts"') > html.index(f'data-sheet="{BLOCKS}"')


def test_site_style_through_the_git_database_is_cached(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        async with GitHubClient(sandbox.api_url, "tok-editor1", REPO, sleep=_no_sleep) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
            plain = await load_site_style(store)
            assert plain.source == "built-in"  # the practice sample has no site files
            await gh.put_file(BLOCKS, b".bb-hero { background: rgb(9, 8, 7); }\n", "style")
            await gh.put_file(
                THEMES,
                b"export const themes = { 'public-blue': { name: 'public-blue', tokens: {"
                b" primary: '#123456' } } };\n",
                "themes",
            )
            sandbox.reset_stats()
            style = await load_site_style(store)
            assert style.source == "repository"
            assert style.stylesheets == ((BLOCKS, ".bb-hero { background: rgb(9, 8, 7); }\n"),)
            assert style.palettes == {"public-blue": {"primary": "#123456"}}
            routes = sandbox.stats()["by_route"]
            assert not any("/contents/" in r for r in routes)  # git database only
            blob_reads = sum(n for r, n in routes.items() if "/git/blobs/" in r)
            assert blob_reads == 2
            sandbox.reset_stats()
            again = await load_site_style(store)
            assert again is style  # same blob shas: parsed once
            stats = sandbox.stats()
            assert stats["total"] == 1, stats  # the tree only (ETag); no blob is read again

    asyncio.run(go())
