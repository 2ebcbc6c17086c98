"""Theme and layout names are the site's own (ThemeContext.js, LayoutSettings.js)."""

from __future__ import annotations

import re

from modu_desktop.core.brochure.sitechoices import LAYOUT_CHOICES, THEME_CHOICES
from modu_desktop.core.docops.ops import LAYOUTS, THEMES
from tests.helpers.paths import SITE_FIXTURE

SITE = SITE_FIXTURE / "src" / "components"


def test_theme_names_and_colours_are_the_sites() -> None:
    js = (SITE / "BrochureBlocks" / "ThemeContext.js").read_text(encoding="utf-8")
    found = {}
    for m in re.finditer(r"name: '([^']+)',\s*label: '([^']+)',\s*tokens: \{(.*?)\}", js, re.S):
        toks = dict(re.findall(r"(\w+): '([^']*)'", m.group(3)))
        found[m.group(1)] = (m.group(2), toks["primary"], toks["primaryLight"], toks["accent"])
    ours = {t.key: (t.label_ko, t.primary, t.light, t.accent) for t in THEME_CHOICES}
    assert ours == found
    assert set(ours) == set(THEMES)


def test_layout_names_and_widths_are_the_sites() -> None:
    js = (SITE / "LayoutSettings.js").read_text(encoding="utf-8")
    found = {
        m.group(1): (m.group(2), int(m.group(3)))
        for m in re.finditer(
            r'id: "([^"]+)", label: "([^"]+)", desc: "[^"]*", width: "(\d+)px"', js
        )
    }
    assert {la.key: (la.label_ko, la.width_px) for la in LAYOUT_CHOICES} == found
    assert set(found) == set(LAYOUTS)
