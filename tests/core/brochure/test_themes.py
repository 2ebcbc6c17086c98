"""One table of the site's themes and layouts (``core/brochure/themes.py``): ids, Korean names,
tokens and widths are the site's (ThemeContext.js, LayoutSettings.js), in the web admin's menu
order, and no other module lists them."""

from __future__ import annotations

import ast
import re

from modu_desktop.core.brochure.themes import (
    DEFAULT_LAYOUT,
    DEFAULT_THEME,
    LAYOUT_KEYS,
    LAYOUTS,
    THEME_KEYS,
    THEMES,
)
from modu_desktop.core.preview.site_style import builtin_style, style_from_checkout
from tests.helpers.paths import CHECKOUT, SITE_FIXTURE

SITE = SITE_FIXTURE / "src" / "components"
ADMIN = SITE_FIXTURE / "static" / "admin" / "index.html"


def _admin_order(const: str) -> list[str]:
    html = ADMIN.read_text(encoding="utf-8")
    array = re.search(rf"const {const} = \[(.*?)\];", html, re.S)
    assert array is not None
    return re.findall(r"value:'([^']+)'", array.group(1))


def test_themes_are_the_sites_with_every_token() -> None:
    js = (SITE / "BrochureBlocks" / "ThemeContext.js").read_text(encoding="utf-8")
    found = {}
    for m in re.finditer(r"name: '([^']+)',\s*label: '([^']+)',\s*tokens: \{(.*?)\}", js, re.S):
        found[m.group(1)] = (m.group(2), re.findall(r"(\w+): '([^']*)'", m.group(3)))
    assert len(found) == 7
    assert {t.key: (t.label_ko, list(t.tokens.items())) for t in THEMES} == found


def test_layouts_are_the_sites() -> None:
    js = (SITE / "LayoutSettings.js").read_text(encoding="utf-8")
    found = {
        m.group(1): (m.group(2), int(m.group(3)))
        for m in re.finditer(
            r'id: "([^"]+)", label: "([^"]+)", desc: "[^"]*", width: "(\d+)px"', js
        )
    }
    assert len(found) == 5
    assert {la.key: (la.label_ko, la.width_px) for la in LAYOUTS} == found


def test_menus_follow_the_web_admins_order_and_defaults() -> None:
    assert list(THEME_KEYS) == _admin_order("THEMES")
    assert list(LAYOUT_KEYS) == _admin_order("LAYOUTS")
    html = ADMIN.read_text(encoding="utf-8")
    assert f"theme='{DEFAULT_THEME}', layout='{DEFAULT_LAYOUT}'" in html


def test_the_preview_without_site_files_uses_the_sites_tokens() -> None:
    """The practice sample has no ThemeContext.js: the preview's stand-in palettes and widths
    are the same as a checkout of the real site gives."""
    site = style_from_checkout(SITE_FIXTURE)
    ours = builtin_style()
    assert ours.source == "built-in" and site.source == "repository"
    assert ours.palettes == site.palettes
    assert ours.layouts == site.layouts


def test_no_other_module_lists_the_themes_or_layouts() -> None:
    """A tuple, list or set naming several theme ids or layout ids anywhere but in the table
    is a second copy that will drift."""
    themes, layouts = set(THEME_KEYS), set(LAYOUT_KEYS)
    copies = []
    for path in sorted((CHECKOUT / "modu_desktop").rglob("*.py")):
        if path.name == "themes.py" and path.parent.name == "brochure":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict):
                elts = node.keys if isinstance(node, ast.Dict) else node.elts
                strings = {e.value for e in elts if isinstance(e, ast.Constant)}
                if len(strings & themes) >= 3 or len(strings & layouts) >= 3:
                    copies.append(f"{path.relative_to(CHECKOUT)}:{node.lineno}")
    assert copies == []
