"""Every English text of the authoring features has its Korean entry."""

from __future__ import annotations

import ast
from pathlib import Path

from modu_desktop import i18n
from modu_desktop.core.brochure.catalog import _LABELS, CATALOG

ROOT = Path(__file__).resolve().parents[1] / "modu_desktop"
FILES = (
    "ui/signin/signin.py",
    "ui/editing/editor.py",
    "ui/editing/editor_layout.py",
    "ui/editing/editor_toolbar.py",
    "ui/editing/page_settings.py",
    "ui/editing/block_form.py",
    "ui/editing/block_picker.py",
    "ui/editing/publish_status.py",
    "ui/pictures/dialog.py",
    "ui/pictures/uploader.py",
    "ui/pictures/editor_drop.py",
    "ui/docops/ops_import.py",
    "ui/shell/main_window.py",
    "ui/shell/window_parts.py",
    "ui/shell/window_menus.py",
    "ui/shell/app.py",
    "ui/shell/app_run.py",
)


def test_every_tr_text_has_korean() -> None:
    table = i18n.catalogue()
    missing = []
    for name in FILES:
        for n in ast.walk(ast.parse((ROOT / name).read_text("utf-8"))):
            if (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Name)
                and n.func.id == "tr"
                and n.args
                and isinstance(n.args[0], ast.Constant)
                and n.args[0].value not in table
            ):
                missing.append((name, n.args[0].value))
    from modu_desktop.ui.editing.block_form import _REASONS

    missing += [("block_form", v) for v in _REASONS.values() if v not in table]
    missing += [("catalog", s.name_en) for s in CATALOG if s.name_en not in table]
    missing += [("catalog", s.description_en) for s in CATALOG if s.description_en not in table]
    missing += [("labels", v) for v in _LABELS.values() if f"block field|{v}" not in table]
    assert not missing


def test_block_names_in_korean_and_english() -> None:
    i18n.set_language("en")
    try:
        assert CATALOG[0].name == "Top banner"
    finally:
        i18n.set_language("ko")
    assert CATALOG[0].name == "상단 배너"
