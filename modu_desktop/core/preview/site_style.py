"""The site's own look, read from the repository being edited (Qt-free).

The preview applies the repository's stylesheets and theme palettes, so a design change on the
site reaches the preview without an app release:

* ``src/css/custom.css`` and ``src/components/BrochureBlocks/blocks.css`` (and the two CSS
  modules of the site's docs layout) — in the order Docusaurus bundles them;
* the theme palettes of ``src/components/BrochureBlocks/ThemeContext.js`` (``themes = {name:
  {tokens: {...}}}``), set as ``--theme-*`` variables on ``<html>`` as its ``ThemeProvider`` does;
* the layouts of ``src/components/LayoutSettings.js`` (id → width; paper size for PDF).

They are read through the git database: one tree request (answered from the ETag when nothing
changed), then blobs by sha from the :class:`~modu_desktop.core.github.blobcache.BlobCache`; parsed
results are kept per set of blob shas. A repository without them (the practice sample) gets our
own stylesheet (``resources/preview/brochure.css``) and the palettes of
:mod:`modu_desktop.core.brochure.themes` (the site's own, from the same files).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from modu_desktop.core.account.paths import resources_dir
from modu_desktop.core.brochure.themes import DEFAULT_THEME, LAYOUTS, THEMES

log = logging.getLogger(__name__)

RESOURCES = resources_dir() / "preview"

REPO_STYLESHEETS: tuple[str, ...] = (
    "src/css/custom.css",
    "src/components/BrochureBlocks/blocks.css",
    "src/theme/DocRoot/Layout/Main/styles.module.css",
    "src/theme/DocRoot/Layout/styles.module.css",
)
THEME_FILE = "src/components/BrochureBlocks/ThemeContext.js"
LAYOUT_FILE = "src/components/LayoutSettings.js"
REPO_STYLE_FILES = (*REPO_STYLESHEETS, THEME_FILE, LAYOUT_FILE)

INITIAL_THEME = "startup-gradient"  # Root's ThemeProvider initialTheme (kept for unknown names)

# Paper for PDF export when the user gives none (layout → paper).
LAYOUT_PAPER = {layout.key: layout.paper for layout in LAYOUTS}


@dataclass(frozen=True)
class SiteStyle:
    """Stylesheets (name, css) in cascade order, palettes (theme → tokens), layouts (id → width)."""

    stylesheets: tuple[tuple[str, str], ...]
    palettes: dict[str, dict[str, str]]
    layouts: dict[str, str]
    source: str  # "repository" | "built-in"
    shas: tuple[str, ...] = field(default=())

    def theme_for(self, front_matter_theme: str | None) -> str:
        """The theme the site ends up with for a document (see ThemeContext.changeTheme)."""
        name = (front_matter_theme or "").strip() or DEFAULT_THEME
        if name in self.palettes:
            return name
        # changeTheme ignores unknown names: the provider's initial theme stays.
        if INITIAL_THEME in self.palettes:
            return INITIAL_THEME
        return next(iter(self.palettes), DEFAULT_THEME)

    def root_style(self, theme: str) -> str:
        """The ``style`` attribute ThemeProvider sets on ``<html>`` for ``theme``."""
        tokens = self.palettes.get(theme, {})
        parts = []
        for key, value in tokens.items():
            css_key = "--theme-" + re.sub(r"([A-Z])", r"-\1", key).lower()
            if _SAFE_VALUE.match(value):
                parts.append(f"{css_key}: {value}")
        return "; ".join(parts)


_SAFE_VALUE = re.compile(r"^[^<>{};\\]*$")

# ------------------------------------------------------------------------- parsing the site


_THEME_HEAD = re.compile(r"""(['"]?)([A-Za-z0-9_-]+)\1\s*:\s*\{\s*name\s*:""")
_TOKENS = re.compile(r"tokens\s*:\s*\{(.*?)\}", re.S)
_TOKEN = re.compile(r"""([A-Za-z][A-Za-z0-9]*)\s*:\s*(['"])(.*?)\2\s*,?""")
_LAYOUT = re.compile(r"""\{\s*id\s*:\s*(['"])([\w-]+)\1[^{}]*?width\s*:\s*(['"])([\w.%]+)\3""")


def parse_palettes(js: str) -> dict[str, dict[str, str]]:
    """``themes = { 'public-blue': { name, label, tokens: { primary: '#…', … } }, … }``."""
    out: dict[str, dict[str, str]] = {}
    for m in _THEME_HEAD.finditer(js):
        tm = _TOKENS.search(js, m.end())
        if tm is None:
            continue
        nxt = _THEME_HEAD.search(js, m.end())
        if nxt is not None and nxt.start() < tm.start():
            continue  # this theme has no tokens of its own
        tokens = {t.group(1): t.group(3) for t in _TOKEN.finditer(tm.group(1))}
        if tokens:
            out[m.group(2)] = tokens
    return out


def parse_layouts(js: str) -> dict[str, str]:
    """``LAYOUTS = [{ id: "slim", …, width: "750px" }, …]`` → ``{"slim": "750px", …}``."""
    return {m.group(2): m.group(4) for m in _LAYOUT.finditer(js)}


# ------------------------------------------------------------------------- built-in fallback


def _our_tokens() -> dict[str, dict[str, str]]:
    return {theme.key: dict(theme.tokens) for theme in THEMES}


OUR_LAYOUTS = {layout.key: f"{layout.width_px}px" for layout in LAYOUTS}


def builtin_style() -> SiteStyle:
    """Our own stylesheet and palettes, for a repository that has none (the practice sample)."""
    css = (RESOURCES / "brochure.css").read_text("utf-8")
    return SiteStyle((("brochure.css", css),), _our_tokens(), dict(OUR_LAYOUTS), "built-in")


def style_from_files(files: dict[str, bytes], shas: tuple[str, ...] = ()) -> SiteStyle:
    """A :class:`SiteStyle` from repository files (path → bytes); missing parts fall back."""
    sheets = tuple(
        (path, files[path].decode("utf-8", "replace")) for path in REPO_STYLESHEETS if path in files
    )
    if not sheets:
        return builtin_style()
    palettes = (
        parse_palettes(files[THEME_FILE].decode("utf-8", "replace")) if THEME_FILE in files else {}
    )
    layouts = (
        parse_layouts(files[LAYOUT_FILE].decode("utf-8", "replace")) if LAYOUT_FILE in files else {}
    )
    return SiteStyle(
        sheets,
        palettes or _our_tokens(),
        layouts or dict(OUR_LAYOUTS),
        "repository",
        shas,
    )


def style_from_checkout(root: Path) -> SiteStyle:
    """A :class:`SiteStyle` from a working copy of the site (tools, tests)."""
    files = {p: (root / p).read_bytes() for p in REPO_STYLE_FILES if (root / p).is_file()}
    return style_from_files(files)


# ------------------------------------------------------------------------- from the repository

_parsed: dict[tuple[str, ...], SiteStyle] = {}


async def load_site_style(store: Any) -> SiteStyle:
    """The site style of the store's branch, through the git database (tree + blobs by sha).

    ``store`` is a :class:`~modu_desktop.core.documents.store.DocumentStore`. Unchanged repository:
    one conditional tree request and no blob request (blobs come from the blob cache).
    """
    tree = await store.client.get_tree(store.branch, recursive=True)
    entries = {}
    for path in REPO_STYLE_FILES:
        entry = tree.find(path) if not tree.truncated else None
        if entry is None and tree.truncated:
            _, entry = await store.client.entry_at(path, store.branch)
        if entry is not None:
            entries[path] = entry.sha
    key = tuple(f"{p}@{s}" for p, s in sorted(entries.items()))
    hit = _parsed.get(key)
    if hit is not None:
        return hit
    blobs = await store.fetch_blobs(list(entries.values())) if entries else {}
    files = {p: blobs[s] for p, s in entries.items() if s in blobs}
    style = style_from_files(files, key)
    _parsed[key] = style
    log.info("preview style: %s (%d stylesheets)", style.source, len(style.stylesheets))
    return style
