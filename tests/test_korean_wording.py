"""Korean that reads as a native editor writes it.

* no "을(를)"-style particle pairs anywhere: particles come from ``modu_desktop.i18n``
  (``{doc:을}``), chosen from the last syllable;
* every English source text the UI translates has a Korean entry (``tr``, and any
  ``QCoreApplication.translate`` left);
* a Korean text with a particle spec is never filled with plain ``str.format`` (that would
  raise at run time), and names only fields its English source has;
* one Korean per English source: the JSON catalogues never give one text two Korean versions
  (what the Qt catalogue's drift check was, now that modu_ko.ts is gone);
* no English left in the Korean texts where it once leaked (the Id label, the preview's block
  errors).
"""

from __future__ import annotations

import ast
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from modu_desktop import i18n
from tests.helpers.lang import in_lang

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


def test_page_titles_are_quoted_with_curly_quotes() -> None:
    """A page is named “제목” everywhere; '제목' in straight quotes reads like a code value."""
    straight = re.compile(r"""['"]\{(title|doc|name_of_page)(:[^}]*)?\}['"]""")
    bad = []
    for f in _catalogue_files():
        for n, line in enumerate(f.read_text("utf-8").splitlines(), 1):
            if straight.search(line):
                bad.append(f"{f.name}:{n}: {line.strip()[:120]}")
    assert not bad, "quote a page title as “{title}”:\n" + "\n".join(bad)


def test_no_particle_pairs_in_the_catalogues() -> None:
    bad = []
    for f in _catalogue_files():
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
            if src:
                yield str(f.relative_to(ROOT)), node.lineno, kind, src


def test_every_translated_english_text_has_a_korean_entry() -> None:
    table = _catalogue()
    missing = []
    for f, line, _kind, src in _translated_sources():
        if src not in table:
            missing.append(f"{f}:{line}: {src!r}")
    assert not missing, "add Korean for:\n" + "\n".join(missing)


def test_korean_entries_are_korean() -> None:
    """A Korean value is not the English source again, unless it is only symbols/fields."""
    same = []
    for en, ko in _catalogue().items():
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
        i18n.tr_in("ko", en, **dummy)  # raises on an unknown particle spec


def _has_particle_spec(text: str) -> bool:
    return any(spec in i18n._BY_FORM for _, _, spec, _ in string.Formatter().parse(text) if spec)


def test_a_korean_text_with_a_particle_is_never_filled_by_str_format() -> None:
    """``self.tr("…").format(…)`` with ``{doc:을}`` in the Korean raises ValueError in Korean
    only; such texts must get their fields through ``tr(text, **fields)``."""
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
    assert not bad, "use tr(text, field=…):\n" + "\n".join(bad)


def test_particles_follow_the_last_syllable_in_real_messages() -> None:
    saved = "✔ Saved “{doc}”"
    assert i18n.tr_in("ko", saved, doc="추진 전략") == "✔ “추진 전략”을 저장했습니다"
    assert (
        i18n.tr_in("ko", saved, doc="환영합니다 페이지") == "✔ “환영합니다 페이지”를 저장했습니다"
    )


# -------------------------------------------------------------------------- one Korean per text


def test_the_catalogues_give_each_text_one_korean() -> None:
    """ko.json and the feature files under ko/ are read as one table: a text defined twice with
    different Korean would depend on the order the files are read in."""
    seen: dict[str, tuple[str, str]] = {}
    drift = []
    for f in _catalogue_files():
        for en, ko in json.loads(f.read_text("utf-8")).items():
            if en in seen and seen[en][1] != ko:
                drift.append(f"{en!r}: {seen[en][0]} {seen[en][1]!r} vs {f.name} {ko!r}")
            seen[en] = (f.name, ko)
    assert not drift, "one Korean per text:\n" + "\n".join(drift)


# -------------------------------------------------------------------------- English in Korean


def test_named_english_leaks_are_gone() -> None:
    from modu_desktop.core.preview import render_preview

    ko_id = _catalogue()["&Id:"]
    assert ko_id != "&Id:" and not re.search(r"[A-Za-z]{2}", ko_id.replace("&I", ""))
    html = render_preview(":::nosuchblock\nx: 1\n:::\n\n:::hero\ntitle: 제목\n")
    assert "(unknown block)" not in html and "(unclosed block)" not in html
    assert "알 수 없는 블록" in html and "닫히지 않았습니다" in html


def test_theme_and_layout_have_the_sites_korean_names() -> None:
    """One source of the names: ``core/brochure/themes.py`` (the site's ThemeContext.js and
    LayoutSettings.js); the web admin's menu names are the same words."""
    from modu_desktop.core.brochure.themes import LAYOUT_BY_KEY, THEME_BY_KEY

    site = (ROOT / "tests/fixtures/pnu-modu-site/static/admin/index.html").read_text("utf-8")
    labels = [(k, c.label_ko) for k, c in THEME_BY_KEY.items()]
    labels += [(k, c.label_ko) for k, c in LAYOUT_BY_KEY.items()]
    for name, label in labels:
        admin = re.search(rf"value:'{re.escape(name)}',\s*label:'([^']+)'", site)
        assert admin is not None, name
        assert admin.group(1).split(" (")[0] in label, (name, admin.group(1), label)
        assert HANGUL.search(label) and name not in label


def test_korean_lock_ages_are_korean() -> None:
    from modu_desktop.core.locks.words import format_age

    assert (
        in_lang("ko", lambda: format_age(90)) == "1분"
        and in_lang("ko", lambda: format_age(3700)) == "1시간 1분"
    )
    assert (
        in_lang("ko", lambda: format_age(30)) == "30초"
        and in_lang("ko", lambda: format_age(None)) == "알 수 없음"
    )


# -------------------------------------------------------------------------- one mechanism

_LANGUAGE_DETECTION = {PKG / "i18n.py", PKG / "ui" / "shell" / "i18n.py"}


def _second_mechanism(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """A bilingual table (``{"ko": …}``), a ``lang == "ko"`` branch, or a
    ``user_message(self, lang)`` method: words chosen apart from ``modu_desktop.i18n``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if _literal(key) == "ko":
                    yield node.lineno, '"ko": in a dict'
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Eq | ast.NotEq) for op in node.ops
        ):
            sides = [node.left, *node.comparators]
            named = any(
                (isinstance(s, ast.Name) and s.id == "lang")
                or (isinstance(s, ast.Attribute) and s.attr == "lang")
                for s in sides
            )
            if named and any(_literal(s) == "ko" for s in sides):
                yield node.lineno, 'lang == "ko"'
        elif (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name == "user_message"
            and any(a.arg != "self" for a in [*node.args.args, *node.args.kwonlyargs])
        ):
            yield node.lineno, "user_message takes a language"


def test_one_translation_mechanism() -> None:
    bad = []
    for f in _py_files():
        if f in _LANGUAGE_DETECTION:
            continue
        for line, what in _second_mechanism(ast.parse(f.read_text("utf-8"))):
            bad.append(f"{f.relative_to(ROOT)}:{line}: {what}")
    assert not bad, "word it with modu_desktop.i18n.tr (Korean in ko/*.json):\n" + "\n".join(bad)


def test_the_mechanism_check_would_catch_each_form() -> None:
    samples = {
        '_M = {"ko": "안녕", "en": "hi"}': '"ko": in a dict',
        'def f(lang):\n    return "a" if lang == "ko" else "b"': 'lang == "ko"',
        'def f(self):\n    return self.lang != "ko"': 'lang == "ko"',
        'class E:\n    def user_message(self, lang="ko"):\n        return ""': "user_message",
    }
    for code, what in samples.items():
        found = [w for _, w in _second_mechanism(ast.parse(code))]
        assert found and found[0].startswith(what), (code, found)
    assert not list(_second_mechanism(ast.parse("def user_message(self):\n    return tr('x')")))
