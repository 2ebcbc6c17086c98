"""Issue 13, defect 8: Korean that reads as a native editor writes it.

* no "을(를)"-style particle pairs anywhere: particles come from ``modu_desktop.i18n``
  (``{doc:을}``), chosen from the last syllable;
* every English source text the UI translates has a Korean entry (``tr``/``self.tr``,
  ``QCoreApplication.translate``, the ops dialogs' ``self.t``);
* a Korean text with a particle spec is never filled with plain ``str.format`` (that would
  raise at run time), and names only fields its English source has;
* the Qt catalogue (modu_ko.ts) carries the same Korean as the JSON catalogues;
* no English leaking into Korean texts that the issue named.
"""

from __future__ import annotations

import ast
import json
import re
import string
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from modu_desktop import i18n

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "modu_desktop"
TRANSLATIONS = ROOT / "resources" / "translations"

# "을(를)", "이(가)", "은(는)", "와(과)", "(으)로", "(이)나" …: a particle written as a choice.
PAIR = re.compile(r"\((?:을|를|이|가|은|는|과|와|으|으로|로|아|야|이나|나|이라|라|이에요|예요)\)")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _catalogue_files() -> list[Path]:
    return [TRANSLATIONS / "ko.json", *sorted((TRANSLATIONS / "ko").glob("*.json"))]


def _catalogue() -> dict[str, str]:
    table: dict[str, str] = {}
    for f in _catalogue_files():
        table.update(json.loads(f.read_text("utf-8")))
    return table


def _py_files() -> Iterator[Path]:
    yield from sorted(PKG.rglob("*.py"))


def _string_constants(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def _literal(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


# -------------------------------------------------------------------------- particle pairs


def test_no_particle_pairs_in_the_catalogues() -> None:
    bad = []
    for f in [*_catalogue_files(), TRANSLATIONS / "modu_ko.ts"]:
        for n, line in enumerate(f.read_text("utf-8").splitlines(), 1):
            if PAIR.search(line):
                bad.append(f"{f.name}:{n}: {line.strip()[:120]}")
    assert not bad, "write the particle with {field:을} instead:\n" + "\n".join(bad)


def test_no_particle_pairs_in_korean_literals_in_the_code() -> None:
    bad = []
    for f in _py_files():
        tree = ast.parse(f.read_text("utf-8"))
        for line, text in _string_constants(tree):
            if HANGUL.search(text) and PAIR.search(text):
                bad.append(f"{f.relative_to(ROOT)}:{line}: {text[:100]!r}")
            elif PAIR.search(text) and text.lstrip().startswith(tuple("을를이가은는과와으로")):
                bad.append(f"{f.relative_to(ROOT)}:{line}: {text[:100]!r}")  # "{x}을(를) …"
    assert not bad, "use modu_desktop.i18n.particle or {field:을}:\n" + "\n".join(bad)


def test_the_checks_would_catch_a_pair() -> None:
    assert PAIR.search("“{doc}”을(를) 저장했습니다")
    assert PAIR.search("{a}와(과) {b}") and PAIR.search("{n}(으)로 바꿨습니다")
    assert not PAIR.search("“{doc}”{doc:을} 저장했습니다") and not PAIR.search("(기본값)")


@pytest.mark.parametrize("word", ["GitHub", "Modu Desktop"])
def test_latin_names_take_the_particle_they_are_read_with(word: str) -> None:
    wrong = {"GitHub": ("GitHub가", "GitHub를", "GitHub는", "GitHub와", "GitHub로")}.get(word, ())
    for f in [*_catalogue_files()]:
        text = f.read_text("utf-8")
        for w in wrong:
            assert w not in text, f"{f.name}: {w}"
    for f in _py_files():
        text = f.read_text("utf-8")
        for w in wrong:
            assert w not in text, f"{f}: {w}"


# -------------------------------------------------------------------------- every text has Korean


def _translated_sources() -> Iterator[tuple[str, int, str, str]]:
    """(file, line, kind, English source) of every literal the UI translates."""
    for f in _py_files():
        tree = ast.parse(f.read_text("utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            src: str | None = None
            kind = name
            if name == "tr" and node.args:
                src = _literal(node.args[0])
            elif name == "translate" and len(node.args) >= 2:
                src = _literal(node.args[1])
            elif name == "t" and isinstance(func, ast.Attribute) and node.args:
                src = _literal(node.args[0])  # the ops dialogs' self.t → ops_delete._KO
            if src:
                yield str(f.relative_to(ROOT)), node.lineno, kind, src


def test_every_translated_english_text_has_a_korean_entry() -> None:
    from modu_desktop.ui.docops.ops_delete import _KO

    table = _catalogue()
    missing = []
    for f, line, kind, src in _translated_sources():
        known = _KO if kind == "t" else table
        if src not in known:
            missing.append(f"{f}:{line}: {src!r}")
    assert not missing, "add Korean for:\n" + "\n".join(missing)


def test_korean_entries_are_korean() -> None:
    """A Korean value is not the English source again, unless it is only symbols/fields."""
    from modu_desktop.ui.docops.ops_delete import _KO

    same = []
    for en, ko in [*_catalogue().items(), *_KO.items()]:
        letters = re.sub(r"\{[^}]*\}|&", "", en)
        if ko == en and re.search(r"[A-Za-z]{2,}", letters):
            same.append(en)
    assert not same, same


# -------------------------------------------------------------------------- fields and particles


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_korean_fields_exist_in_the_english_source_and_particle_specs_are_known() -> None:
    for en, ko in _catalogue().items():
        assert _fields(ko) <= _fields(en) | {"n"} or "%n" in en, (en, ko)
        dummy = {name: "전략" for name in _fields(ko)}
        i18n.fill(ko, **dummy)  # raises on an unknown particle spec


def _has_particle_spec(text: str) -> bool:
    return any(spec in i18n._BY_FORM for _, _, spec, _ in string.Formatter().parse(text) if spec)


def test_a_korean_text_with_a_particle_is_never_filled_by_str_format() -> None:
    """``self.tr("…").format(…)`` with ``{doc:을}`` in the Korean raises ValueError in Korean
    only; such texts must go through ``modu_desktop.i18n.fill`` (or ``tr``)."""
    table = _catalogue()
    with_particles = {en for en, ko in table.items() if _has_particle_spec(ko)}
    assert with_particles  # the catalogue uses them
    bad = []
    for f in _py_files():
        tree = ast.parse(f.read_text("utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "format"
                and isinstance(node.func.value, ast.Call)
            ):
                continue
            inner = node.func.value
            func = inner.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            args = inner.args
            src = None
            if name == "tr" and args:
                src = _literal(args[0])
            elif name == "translate" and len(args) >= 2:
                src = _literal(args[1])
            elif name in ("_t", "translate_or") and args:
                ko = _literal(args[-1])
                if ko and _has_particle_spec(ko):
                    bad.append(f"{f.relative_to(ROOT)}:{node.lineno}")
                continue
            if src in with_particles:
                bad.append(f"{f.relative_to(ROOT)}:{node.lineno}: {src!r}")
    assert not bad, "use modu_desktop.i18n.fill(...):\n" + "\n".join(bad)


def test_particles_follow_the_last_syllable_in_real_messages() -> None:
    table = _catalogue()
    saved = table["✔ Saved “{doc}”"]
    assert i18n.fill(saved, doc="추진 전략") == "✔ “추진 전략”을 저장했습니다"
    assert i18n.fill(saved, doc="환영합니다 페이지") == "✔ “환영합니다 페이지”를 저장했습니다"


# -------------------------------------------------------------------------- the Qt catalogue


def test_the_qt_catalogue_has_the_same_korean() -> None:
    """modu_ko.ts is rebuilt from the JSON catalogues (resources/translations/update.py)."""
    table = _catalogue()
    root = ET.parse(TRANSLATIONS / "modu_ko.ts").getroot()
    stale = []
    for msg in root.iter("message"):
        src = msg.findtext("source")
        tr = msg.find("translation")
        if src is None or tr is None:
            continue
        forms = [f.text or "" for f in tr.iter("numerusform")]
        text = forms[0] if forms else (tr.text or "")
        if src in table and text != table[src]:
            stale.append(src)
    assert not stale, "run resources/translations/update.py:\n" + "\n".join(stale)


# -------------------------------------------------------------------------- English in Korean


def test_named_english_leaks_are_gone() -> None:
    from modu_desktop.core.render import render_preview
    from modu_desktop.ui.docops.ops_delete import _KO

    assert _KO["&Id:"] != "&Id:" and not re.search(r"[A-Za-z]{2}", _KO["&Id:"].replace("&I", ""))
    html = render_preview(":::nosuchblock\nx: 1\n:::\n\n:::hero\ntitle: 제목\n")
    assert "(unknown block)" not in html and "(unclosed block)" not in html
    assert "알 수 없는 블록" in html and "닫히지 않았습니다" in html


def test_theme_and_layout_have_the_sites_korean_names() -> None:
    from modu_desktop.core.ops import LAYOUT_LABELS, LAYOUTS, THEME_LABELS, THEMES

    assert set(THEME_LABELS) == set(THEMES) and set(LAYOUT_LABELS) == set(LAYOUTS)
    site = (ROOT / "tests/fixtures/pnu-modu-site/static/admin/index.html").read_text("utf-8")
    for name, label in [*THEME_LABELS.items(), *LAYOUT_LABELS.items()]:
        assert f"value:'{name}'" in site and f"label:'{label.ko}'" in site, name
        assert HANGUL.search(label.ko) and name not in label.ko


def test_korean_lock_ages_are_korean() -> None:
    from modu_desktop.core.locks import format_age

    assert format_age(90, "ko") == "1분" and format_age(3700, "ko") == "1시간 1분"
    assert format_age(30, "ko") == "30초" and format_age(None, "ko") == "알 수 없음"
