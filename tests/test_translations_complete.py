"""Every text the code words with ``tr`` (or the core's ``Text``) has Korean in the
catalogue (one mechanism, complete)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from modu_desktop.i18n import catalogue

PACKAGE = Path(__file__).resolve().parent.parent / "modu_desktop"


def _tr_sources() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("tr", "tr_count", "Text")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                out.append((str(path.relative_to(PACKAGE)), node.args[0].value))
    return out


def test_every_tr_text_has_korean() -> None:
    found = _tr_sources()
    assert len(found) > 150  # the window, dialogs and status texts all go through tr
    korean = catalogue()
    missing = [
        (where, text)
        for where, text in found
        if text not in korean and re.sub(r"\{\w+\}|\W", "", text)  # not only placeholders
    ]
    assert not missing


def test_no_either_or_particles_in_new_catalogues() -> None:
    """Feature catalogues choose the particle from the last syllable (``{doc:을}``)."""
    folder = PACKAGE.parent / "resources" / "translations" / "ko"
    import json

    for path in sorted(folder.glob("*.json")):
        for ko in json.loads(path.read_text("utf-8")).values():
            for pair in ("을(를)", "이(가)", "은(는)", "(으)로", "과(와)"):
                assert pair not in ko, (path.name, ko)
