"""The one reading of the ``:::`` block syntax: the site's names, documents cut into parts that
give the text back byte for byte, blocks found where the editor, the model and the preview
expect them — and no second copy of the names or the patterns anywhere in the product."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from modu_desktop.core.brochure import block_model, blocks, syntax
from modu_desktop.core.brochure.catalog import CATALOG
from modu_desktop.core.brochure.syntax import BlockPart, FrontMatterPart, TextPart
from modu_desktop.core.preview.blocks import BLOCK_RENDERERS
from tests.helpers.paths import CHECKOUT, FIXTURES, SITE_FIXTURE

PACKAGE = CHECKOUT / "modu_desktop"
SITE_PLUGIN = SITE_FIXTURE / "src" / "theme" / "remarkBrochureDirectives.js"
DOC_DIRS = (
    FIXTURES / "pnu-modu" / "docs",
    SITE_FIXTURE / "docs",
    PACKAGE / "sandbox" / "repo" / "seed_data" / "docs",
)
DOCUMENTS = sorted(p for d in DOC_DIRS for p in d.rglob("*") if p.suffix in (".md", ".mdx"))
TEMPLATE = (FIXTURES / "pnu-modu" / "docs" / "99-template.md").read_bytes().decode("utf-8")


def _doc_id(path: Path) -> str:
    return str(path.relative_to(CHECKOUT))


def _variants(text: str) -> dict[str, str]:
    crlf = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return {"as-is": text, "crlf": crlf, "bom": "\ufeff" + text, "bom-crlf": "\ufeff" + crlf}


# ------------------------------------------------------------------------------------ names
def test_the_18_names_are_the_sites() -> None:
    js = SITE_PLUGIN.read_text(encoding="utf-8")
    array = re.search(r"const targetBlocks = \[(.*?)\];", js)
    assert array is not None
    names = tuple(re.findall(r"'([^']+)'", array.group(1)))
    assert names == syntax.BLOCK_NAMES
    assert len(names) == 18
    assert tuple(n for n in names if n != "chapterheader") == syntax.BLOCK_KINDS


def test_every_kind_has_a_preview_component_and_a_picker_entry() -> None:
    assert set(BLOCK_RENDERERS) == set(syntax.BLOCK_KINDS)
    assert {spec.kind for spec in CATALOG} == set(syntax.BLOCK_KINDS)


def test_kinds_of_names() -> None:
    assert syntax.block_kind("chapterheader") == "chapter-header"
    assert syntax.block_kind("cards") == "cards"
    assert syntax.block_kind("Cards") is None  # the site's plugin compares exactly
    assert syntax.block_kind("tip") is None
    assert syntax.directive_kind("Cards") == "cards"
    assert syntax.directive_kind("TIP") == "admonition"
    assert syntax.directive_kind("cardz") == ""


def _string_lists(tree: ast.AST) -> list[tuple[int, set[str]]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            strings = {
                e.value
                for e in node.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
            out.append((node.lineno, strings))
    return out


def test_only_the_syntax_module_lists_the_block_names() -> None:
    """A list of several block names, or of the admonitions, or a ``:::`` pattern, written
    anywhere but in ``syntax.py`` is a second copy that will drift. (The publish check models
    the site's MDX parser itself — colon counts, attributes — and keeps that grammar.)"""
    kinds, admonitions = set(syntax.BLOCK_KINDS), set(syntax.ADMONITIONS)
    copies = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "core/brochure/syntax.py":
            continue
        source = path.read_text(encoding="utf-8")
        for line, strings in _string_lists(ast.parse(source)):
            if len(strings & kinds) >= 4 or len(strings & admonitions) >= 4:
                copies.append(f"{rel}:{line}")
        if not rel.startswith("core/publish/check/"):
            for m in re.finditer(r"re\.compile\(\s*r?[\"'](.*?)[\"']\s*[,)]", source):
                if ":::" in m.group(1):
                    copies.append(f"{rel}: {m.group(1)}")
    assert copies == []


# --------------------------------------------------------------------------------- documents
@pytest.mark.parametrize("path", DOCUMENTS, ids=_doc_id)
def test_parts_give_every_document_back_byte_for_byte(path: Path) -> None:
    raw = path.read_bytes()
    for variant, text in _variants(raw.decode("utf-8")).items():
        parts = syntax.split_document(text)
        assert "".join(p.text for p in parts).encode("utf-8") == text.encode("utf-8"), variant
        pos = 0
        for part in parts:
            assert part.start == pos and part.end > part.start, variant
            assert text[part.start : part.end] == part.text
            pos = part.end
        kinds = [type(p) for p in parts]
        assert not any(a is b is TextPart for a, b in zip(kinds, kinds[1:], strict=False))
    assert raw.decode("utf-8").encode("utf-8") == raw


@pytest.mark.parametrize("path", DOCUMENTS, ids=_doc_id)
def test_every_fixture_block_is_the_same_whatever_the_line_breaks(path: Path) -> None:
    """CRLF or a BOM change no block: same lines, same names; each brochure block's text
    goes through the block model unchanged, and the preview finds the same blocks."""
    variants = _variants(path.read_bytes().decode("utf-8"))
    plain = [p for p in syntax.split_document(variants["as-is"]) if isinstance(p, BlockPart)]
    for variant, text in variants.items():
        found = [p for p in syntax.split_document(text) if isinstance(p, BlockPart)]
        key = [(p.first_line, p.last_line, p.name, p.kind, p.closed) for p in found]
        assert key == [(p.first_line, p.last_line, p.name, p.kind, p.closed) for p in plain]
        for part in found:
            assert syntax.OPENER.match(part.text.split("\n")[0])
            if part.is_brochure_block:
                assert block_model.parse(part.text).text() == part.text, (variant, part.name)
    fm, body = blocks.split_front_matter(variants["as-is"])
    offset = fm.raw.count("\n") + 1 if fm.raw else 0
    preview = [
        (offset + s.line, s.name, s.closed)
        for s in blocks.split_segments(body)
        if isinstance(s, blocks.Block)
    ]
    assert preview == [(p.first_line, p.name, p.closed) for p in plain]


def test_the_guide_front_matter_and_code_fences() -> None:
    parts = syntax.split_document(TEMPLATE)
    assert isinstance(parts[0], FrontMatterPart)
    assert parts[0].text.startswith("---\n") and parts[0].text.endswith("\n---")
    assert syntax.front_matter_lines(TEMPLATE) == parts[0].last_line + 1 == 8
    spans = syntax.block_spans(TEMPLATE)
    assert len(spans) == 18 and all(s.closed for s in spans)
    hero = syntax.block_at(TEMPLATE, 10)
    assert hero is not None and hero.name == "hero"
    assert syntax.block_at(TEMPLATE, 41) is None  # the fenced example under ① hero
    kpi = syntax.block_at(TEMPLATE, 94)
    assert kpi is not None and kpi.name == "kpi"
    assert syntax.replace_block(TEMPLATE, kpi, kpi.text) == TEMPLATE
    new = syntax.replace_block(TEMPLATE, kpi, ":::kpi\n:::")
    assert new == TEMPLATE[: kpi.start] + ":::kpi\n:::" + TEMPLATE[kpi.end :]


def test_parts_of_a_small_document_with_crlf_and_bom() -> None:
    text = (
        "\ufeff---\r\ntitle: 가\r\n---\r\n글\r\n:::hero\r\ntitle: 나\r\n:::\r\n\r\n:::tip[팁]\r\n끝"
    )
    parts = syntax.split_document(text)
    assert [type(p).__name__ for p in parts] == [
        "FrontMatterPart",
        "TextPart",
        "BlockPart",
        "TextPart",
        "BlockPart",
    ]
    fm, run, hero, gap, tip = parts
    assert fm.text == "\ufeff---\r\ntitle: 가\r\n---"
    assert run.text == "\r\n글\r\n"
    assert isinstance(hero, BlockPart) and hero.text == ":::hero\r\ntitle: 나\r\n:::"
    assert (hero.first_line, hero.last_line, hero.kind, hero.closed) == (4, 6, "hero", True)
    assert gap.text == "\r\n\r\n"
    assert isinstance(tip, BlockPart) and tip.kind == "admonition" and tip.label == "[팁]"
    assert not tip.closed and tip.text == ":::tip[팁]\r\n끝"


def test_a_block_on_the_first_line_after_a_bom() -> None:
    parts = syntax.split_document("\ufeff:::cta\ntitle: 가\n:::\n")
    assert [p.text for p in parts] == ["\ufeff", ":::cta\ntitle: 가\n:::", "\n"]
    assert isinstance(parts[1], BlockPart) and parts[1].first_line == 0


def test_unclosed_block_keeps_only_lines_that_can_be_block_content() -> None:
    text = "글\n:::hero\ntitle: 가\n\n:::cards\ntitle: 나\n:::\n"
    assert [(s.name, s.first_line, s.last_line, s.closed) for s in syntax.block_spans(text)] == [
        ("hero", 1, 2, False),
        ("cards", 4, 6, True),
    ]
    text = ":::cards\n- title: 하나\n\n## 다음 제목\n\n본문\n"
    (cards,) = syntax.block_spans(text)
    assert (cards.last_line, cards.closed) == (1, False)
    assert syntax.block_at(text, 3) is None


def test_fenced_code_unknown_names_and_stray_closers() -> None:
    text = "```\n:::hero\n:::\n```\n:::hreo\nx\n:::\n:::\n~~~~\n:::cta\n~~~~\n"
    parts = syntax.split_document(text)
    found = [(p.name, p.kind, p.first_line) for p in parts if isinstance(p, BlockPart)]
    assert found == [("hreo", "", 4)]
    assert syntax.block_spans(text) == []
    assert syntax.split_document("") == []
    assert [p.text for p in syntax.split_document(":::")] == [":::"]
