"""The site's own build as the oracle of how a Markdown body reads.

``built_bodies(docs)`` puts every document into one private copy of the real site (its
``docs/`` Markdown replaced by ``docs``, pictures kept), runs ``npm run build`` once, and returns
each page's rendered body: the inner HTML of the element with class ``theme-doc-markdown`` in
``build/docs/<id>/index.html``. The answer is cached under ``tests.helpers.nodetools.cache_root()``,
keyed by the documents, the site's lock file, its config and its remark plugin, so a second run
builds nothing. Needs Node and npm (``require_node`` skips without them).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import html5lib

from tests.helpers.nodetools import cache_root, require_node, site_checkout
from tests.helpers.paths import FIXTURES, SITE_FIXTURE

CORPUS = FIXTURES / "markdown-corpus"
_SITE_INPUTS = (
    "package-lock.json",
    "docusaurus.config.js",
    "src/theme/remarkBrochureDirectives.js",
    "src/theme/MDXComponents.js",
)


def corpus() -> dict[str, str]:
    """The differential corpus: name (file name without ``.md``) → Markdown body."""
    return {p.stem: p.read_text("utf-8") for p in sorted(CORPUS.glob("*.md"))}


def doc_id(name: str) -> str:
    return "c" + name.split("-", 1)[0]


def with_front_matter(name: str, body: str) -> str:
    return f"---\nid: {doc_id(name)}\ntitle: 문서 {name.split('-', 1)[0]}\n---\n\n{body}"


def _key(docs: dict[str, str]) -> str:
    h = hashlib.sha256(b"body-v2")
    for rel in _SITE_INPUTS:
        h.update((SITE_FIXTURE / rel).read_bytes())
    h.update(json.dumps(docs, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()[:16]


def extract_body(page_html: str) -> str | None:
    """The element with class ``theme-doc-markdown`` (serialised with every end tag), or None."""
    root = html5lib.parse(page_html, namespaceHTMLElements=False)
    for element in root.iter():
        if "theme-doc-markdown" in (element.get("class") or "").split():
            return html5lib.serialize(
                element, tree="etree", omit_optional_tags=False, quote_attr_values="always"
            )
    return None


def _build(docs: dict[str, str], work: Path) -> dict[str, str | None]:
    checkout = site_checkout()
    site = work / "site"
    ignore = shutil.ignore_patterns("node_modules", "build", ".docusaurus")
    shutil.copytree(checkout, site, ignore=ignore)
    (site / "node_modules").symlink_to(checkout / "node_modules", target_is_directory=True)
    for old in (site / "docs").glob("*.md*"):
        old.unlink()
    for name, body in docs.items():
        (site / "docs" / f"{name}.md").write_text(with_front_matter(name, body), "utf-8")
    done = subprocess.run(
        ["npm", "run", "build"], cwd=site, capture_output=True, text=True, timeout=1800
    )
    if done.returncode != 0:
        raise RuntimeError(f"the site build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    out: dict[str, str | None] = {}
    for name in docs:
        page = site / "build" / "docs" / doc_id(name) / "index.html"
        out[name] = extract_body(page.read_text("utf-8")) if page.exists() else None
    return out


def built_bodies(docs: dict[str, str] | None = None) -> dict[str, str | None]:
    """Each document's body as the real site build renders it (cached)."""
    require_node()
    docs = corpus() if docs is None else docs
    cache = cache_root() / "site-bodies" / f"{_key(docs)}.json"
    if cache.exists():
        return json.loads(cache.read_text("utf-8"))
    with tempfile.TemporaryDirectory(prefix="site-oracle-") as tmp:
        bodies = _build(docs, Path(tmp))
    cache.parent.mkdir(parents=True, exist_ok=True)
    part = cache.with_suffix(".part")
    part.write_text(json.dumps(bodies, ensure_ascii=False, indent=0), "utf-8")
    part.replace(cache)
    return bodies


# python -m tests.helpers.site_oracle: build (or read) the corpus' bodies
if __name__ == "__main__":
    import sys

    got = built_bodies()
    print(f"{sum(v is not None for v in got.values())}/{len(got)} pages built", file=sys.stderr)
