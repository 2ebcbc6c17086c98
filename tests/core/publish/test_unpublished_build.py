"""Opt-in (needs Node and npm; skips without them): the real site's build is the oracle of
"not published". A page the app creates (``draft: true``) is left out of the production build —
no page at its address — while a published page beside it is built; 게시하기's text builds it.

It also records what the real site does around such a page: its own navigation
(``getDynamicNavItems`` in ``docusaurus.config.js``) lists every file in ``docs/`` whether
published or not, so until the site learns to skip ``draft: true`` there, every page's menu
links to the unpublished page's address, which answers 404 (a "broken link" warning, not a
failed build). ``SITE_NAV_FIX`` is the one-line change for the site repository that ends it;
the test builds with it too, so the proposal is known to work."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from modu_desktop.core.brochure.unpublished import published
from modu_desktop.core.docops.newdoc import NewDocRequest
from tests.helpers.nodetools import SITE_FIXTURE, cache_root, require_node, site_checkout

NAV_FILES = (
    "  const files = fs.readdirSync(docsDir).filter(f => f.endsWith('.md') || f.endsWith('.mdx'));"
)
SITE_NAV_FIX = (
    NAV_FILES[:-1]
    + """
    // a page with draft: true is left out of the production build: no menu entry for it either
    .filter(f => process.env.NODE_ENV !== 'production'
      || !/^---[\\s\\S]*?^draft:\\s*["']?true["']?\\s*$[\\s\\S]*?^---/im.test(
        fs.readFileSync(path.join(docsDir, f), 'utf8')));"""
)


def _build(docs: dict[str, str], *, nav_fix: bool) -> dict[str, object]:
    """Build a private copy of the real site with ``docs`` added; what came out (cached)."""
    key = hashlib.sha256(b"unpublished-v1")
    for rel in ("package-lock.json", "docusaurus.config.js", "sidebars.js"):
        key.update((SITE_FIXTURE / rel).read_bytes())
    key.update(json.dumps([docs, nav_fix], sort_keys=True, ensure_ascii=False).encode())
    cache = cache_root() / "site-unpublished" / f"{key.hexdigest()[:16]}.json"
    if cache.exists():
        return dict(json.loads(cache.read_text("utf-8")))
    checkout = site_checkout()
    with tempfile.TemporaryDirectory(prefix="site-unpublished-") as tmp:
        site = Path(tmp) / "site"
        ignore = shutil.ignore_patterns("node_modules", "build", ".docusaurus")
        shutil.copytree(checkout, site, ignore=ignore)
        (site / "node_modules").symlink_to(checkout / "node_modules", target_is_directory=True)
        for name, text in docs.items():
            (site / "docs" / name).write_text(text, "utf-8")
        if nav_fix:
            config = site / "docusaurus.config.js"
            source = config.read_text("utf-8")
            assert NAV_FILES in source
            config.write_text(source.replace(NAV_FILES, SITE_NAV_FIX), "utf-8")
        done = subprocess.run(
            ["npm", "run", "build"], cwd=site, capture_output=True, text=True, timeout=1800
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        built = site / "build"
        result: dict[str, object] = {
            "pages": sorted(p.name for p in (built / "docs").iterdir() if p.is_dir()),
            "intro": (built / "docs" / "intro" / "index.html").read_text("utf-8"),
            "home": (built / "index.html").read_text("utf-8"),
            "broken": "Docusaurus found broken links" in done.stdout + done.stderr,
        }
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(result, ensure_ascii=False), "utf-8")
    return result


def _docs() -> dict[str, str]:
    draft = NewDocRequest("camp", "여름 캠프 안내", 10, template=True).render()
    ready = published(NewDocRequest("open-day", "공개의 날", 11).render())
    return {"10-camp.md": draft, "11-open-day.md": ready}


def test_an_unpublished_page_is_left_out_of_the_real_build() -> None:
    require_node()
    docs = _docs()
    assert "\ndraft: true\n" in docs["10-camp.md"] and "draft" not in docs["11-open-day.md"]
    got = _build(docs, nav_fix=False)
    pages = got["pages"]
    assert isinstance(pages, list)
    assert "open-day" in pages and "intro" in pages  # the published page is built
    assert "camp" not in pages  # the unpublished one is not: its address answers 404
    # The site's own menu still names it (see the module docstring): a link to nowhere.
    assert re.search(r'href="?/docs/camp\b', str(got["intro"])) and got["broken"] is True


def test_with_the_proposed_site_change_the_menu_leaves_it_out_too() -> None:
    require_node()
    got = _build(_docs(), nav_fix=True)
    pages = got["pages"]
    assert isinstance(pages, list) and "camp" not in pages and "open-day" in pages
    for html in (str(got["intro"]), str(got["home"])):
        assert "/docs/camp" not in html and "여름 캠프 안내" not in html
        assert "/docs/open-day" in html
    assert got["broken"] is False
