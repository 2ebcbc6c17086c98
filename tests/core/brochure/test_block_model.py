"""The block model: every block of the site's guide read and written back byte for byte, edits
in the site's syntax, unreadable lines kept and reported."""

from __future__ import annotations

import re

import pytest

from modu_desktop.core.brochure import block_model as bm
from modu_desktop.core.brochure import blocks as preview_blocks
from modu_desktop.core.brochure import syntax
from modu_desktop.core.brochure.catalog import BY_ENTRY, CATALOG, spec_for
from modu_desktop.core.brochure.examples import EXAMPLES
from tests.helpers.paths import FIXTURES

FIXTURES = FIXTURES
TEMPLATE = (FIXTURES / "pnu-modu" / "docs" / "99-template.md").read_text(encoding="utf-8")


def _all_template_blocks() -> list[tuple[int, str]]:
    """Every ``:::name`` … ``:::`` of the guide, also the ones shown inside code fences."""
    lines = TEMPLATE.split("\n")
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        m = re.match(r"^:::([a-z-]+)", lines[i])
        if m and m.group(1) in syntax.BLOCK_NAMES:
            j = i + 1
            while not re.match(r"^:::\s*$", lines[j]):
                j += 1
            out.append((i + 1, "\n".join(lines[i : j + 1])))
            i = j + 1
        else:
            i += 1
    return out


TEMPLATE_BLOCKS = _all_template_blocks()


def test_the_guide_has_all_its_blocks() -> None:
    kinds = {bm.parse(t).kind for _n, t in TEMPLATE_BLOCKS}
    assert len(TEMPLATE_BLOCKS) == 36
    assert kinds == set(syntax.BLOCK_NAMES) - {"chapter-header", "chapterheader"}


@pytest.mark.parametrize(
    ("line", "text"), TEMPLATE_BLOCKS, ids=[str(n) for n, _ in TEMPLATE_BLOCKS]
)
def test_every_guide_block_round_trips_byte_for_byte(line: int, text: str) -> None:
    model = bm.parse(text)
    assert model.understood, model.problems
    assert model.text() == text


@pytest.mark.parametrize(
    ("line", "text"), TEMPLATE_BLOCKS, ids=[str(n) for n, _ in TEMPLATE_BLOCKS]
)
def test_written_from_fields_alone_gives_the_guides_spelling(line: int, text: str) -> None:
    """No copy of the original lines: the values alone, written in the site's syntax, give
    the guide's text back (quotes of ①②, blank lines between items, two-space sub-keys)."""
    m = bm.parse(text)
    if m.kind == "split":
        sections = {s.name: [it.values() for it in s.body.items] for s in m.sections}
        rebuilt = bm.build(m.name, m.values(), sections=sections)
    elif m.kind == "datatable":
        rebuilt = bm.build(m.name, m.values(), rows=m.rows())
    else:
        assert m.body is not None
        rebuilt = bm.build(m.name, m.values(), [it.values() for it in m.body.items])
    assert rebuilt == text


@pytest.mark.parametrize(
    ("line", "text"), TEMPLATE_BLOCKS, ids=[str(n) for n, _ in TEMPLATE_BLOCKS]
)
def test_reads_the_same_values_as_the_preview(line: int, text: str) -> None:
    m = bm.parse(text)
    lines = text.split("\n")
    ref = preview_blocks.parse_block(m.name, lines[1:-1])
    assert m.values() == ref.props
    if m.kind == "split":
        assert [it.values() for it in m.section("left").items] == ref.left
        assert [it.values() for it in m.section("right").items] == ref.right
    elif m.kind == "datatable":
        assert [bm.join_pipes(r) for r in m.rows()] == ref.rows
    else:
        assert m.body is not None
        assert [it.values() for it in m.body.items] == ref.items


def test_a_changed_value_changes_that_line_only() -> None:
    text = EXAMPLES["cards"]
    m = bm.parse(text)
    assert m.body is not None
    m.body.items[1].set("description", "새 설명입니다")
    m.set("columns", "2")
    old, new = text.split("\n"), m.text().split("\n")
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert changed == [
        ("columns: 3", "columns: 2"),
        (
            "  description: 산학협력 프로젝트, 채용연계형 인턴십을 통한 실무 역량 교육",
            "  description: 새 설명입니다",
        ),
    ]


def test_reorder_keeps_blank_lines_in_place_and_moves_whole_items() -> None:
    m = bm.parse(EXAMPLES["kpi"])
    assert m.body is not None
    m.body.move(0, 2)
    again = bm.parse(m.text())
    assert again.understood
    assert again.body is not None
    assert [it.get("label") for it in again.body.items] == [
        "전공 특화 트랙",
        "동남권 AI·SW",
        "SW학과 정원",
    ]
    assert again.body.items[2].values() == {
        "label": "SW학과 정원",
        "value": "192명",
        "sub": "2019년 대비 43% 순증",
    }
    # same shape as before: a blank line between items, none doubled
    assert m.text().count("\n\n") == EXAMPLES["kpi"].count("\n\n")
    m.body.move(2, 0)
    assert m.text() == EXAMPLES["kpi"]


def test_add_and_remove_items_in_the_blocks_own_spelling() -> None:
    m = bm.parse(EXAMPLES["timeline"])
    assert m.body is not None
    item = m.new_item({"phase": "2029년", "title": "새 단계", "description": "", "accent": ""})
    m.body.add(item)
    text = m.text()
    assert text.endswith(
        "  description: 취업률 90% 목표, 지역 SW 가치확산 거점 완성\n\n"
        "- phase: 2029년\n  title: 새 단계\n:::"
    )
    m.body.remove(len(m.body.items) - 1)
    assert m.text() == EXAMPLES["timeline"]
    first = m.body.remove(0)
    m.body.add(first, 0)
    assert m.text() == EXAMPLES["timeline"]


def test_a_new_field_goes_under_its_item_and_empty_values_add_nothing() -> None:
    m = bm.parse(EXAMPLES["timeline"])
    assert m.body is not None
    m.body.items[0].set("accent", "true")
    m.body.items[1].set("nothing", "")
    lines = m.text().split("\n")
    i = lines.index("  description: SW중심대학 사업 선정, 추진위원회 구성, 전담 조직 설치")
    assert lines[i + 1] == "  accent: true"
    assert "nothing" not in m.text()


def test_circled_numbers_are_quoted_as_the_guide_asks() -> None:
    m = bm.parse(EXAMPLES["split"])
    right = m.section("right")
    right.add(m.new_item({"num": "③", "title": "세 번째", "desc": "설명"}, into="right"))
    assert '- num: "③"' in m.text()
    assert bm.parse(m.text()).section("right").items[-1].get("num") == "③"


def test_split_left_and_right() -> None:
    m = bm.parse(EXAMPLES["split"])
    assert [s.name for s in m.sections] == ["left", "right"]
    m.section("left").remove(2)
    m.section("right").move(1, 0)
    again = bm.parse(m.text())
    assert [it.get("label") for it in again.section("left").items] == ["부산대학교", "경북대학교"]
    assert [it.get("num") for it in again.section("right").items] == ["②", "①"]
    assert again.get("left-dark") == "true"


def test_datatable_rows_and_columns() -> None:
    m = bm.parse(EXAMPLES["datatable"])
    assert m.columns() == ["모집단위", "정원", "비고"]
    m.add_column("전형", 1)
    assert m.get("columns") == "모집단위 | 전형 | 정원 | 비고"
    assert m.get("align") == "left | left | center | left"
    assert m.rows()[0] == ["**컴퓨터공학전공**", "-", "[!84명]", "SW 전공 핵심 학과"]
    m.remove_column(1)
    assert m.text() == EXAMPLES["datatable"]
    assert m.body is not None
    m.body.add(m.new_item({"row": "통계학전공 | 30명 | 신설"}))
    assert m.text().endswith(
        "- **데이터사이언스전공** | 44명 | [~의생명융합공학부 내 전공]\n"
        "- 통계학전공 | 30명 | 신설\n:::"
    )
    head = m.body.items[0].head
    assert isinstance(head, bm.Row)  # a datatable's items are rows
    head.set_cells(["A", "B", "C"])
    assert "- A | B | C\n" in m.text()


def test_unreadable_lines_are_kept_where_they_are_and_reported() -> None:
    text = (
        ":::cards\n"
        "title: 제목\n"
        "이 줄은 키가 없습니다\n"
        "\n"
        "- title: 하나\n"
        "  icon: 🎯\n"
        "  줄바꿈된 설명\n"
        "- 그냥 글\n"
        ":::"
    )
    m = bm.parse(text)
    assert m.text() == text
    assert [(p.line, p.reason) for p in m.problems] == [
        (2, "not-a-key"),
        (6, "not-a-key"),
        (7, "item-without-key"),
    ]
    assert not m.understood
    m.set("title", "새 제목")
    assert m.text() == text.replace("title: 제목", "title: 새 제목")


def test_hand_written_spacing_survives_an_edit_elsewhere() -> None:
    text = ":::quote\ntext:   여러 칸 띄움  \nauthor:\nrole: 'x'\n:::"
    m = bm.parse(text)
    assert m.understood and m.text() == text
    m.set("role", "총장")
    assert m.text() == ":::quote\ntext:   여러 칸 띄움  \nauthor:\nrole: '총장'\n:::"
    m.set("author", "홍길동")
    assert "\nauthor: 홍길동\n" in m.text()


def test_unclosed_block_is_reported() -> None:
    m = bm.parse(":::hero\ntitle: 제목")
    assert [p.reason for p in m.problems] == ["unclosed"]
    assert m.text() == ":::hero\ntitle: 제목"


def test_not_a_block() -> None:
    with pytest.raises(bm.NotABlock):
        bm.parse(":::tip\n내용\n:::")
    with pytest.raises(bm.NotABlock):
        bm.parse("그냥 글")


def test_chapterheader_is_the_same_block() -> None:
    m = bm.parse(":::chapterheader\nchapter: 2\ntitle: 둘\n:::")
    assert m.kind == "chapter-header" and m.name == "chapterheader"
    assert spec_for(m.kind).entry == "chapter-header"


def test_catalog_has_18_entries_each_with_a_clean_example() -> None:
    assert len(CATALOG) == 18
    assert len({s.entry for s in CATALOG}) == 18
    kinds = {s.kind for s in CATALOG}
    assert kinds == set(syntax.BLOCK_NAMES) - {"chapterheader"}
    template_texts = {t for _n, t in TEMPLATE_BLOCKS}
    for spec in CATALOG:
        m = bm.parse(spec.example)
        assert m.understood, spec.entry
        assert m.kind == spec.kind
        assert m.text() == spec.example
        if spec.entry != "chapter-header":
            assert spec.example in template_texts, spec.entry  # taken from the guide
        keys = {f.key for f in spec.fields}
        assert set(m.values()) <= keys, spec.entry
        item_keys = {f.key for f in spec.item_fields}
        for _name, lst in m.lists():
            for it in lst.items:
                if spec.kind == "split":
                    continue
                assert set(it.values()) <= item_keys, spec.entry
    assert BY_ENTRY["panel-desc"].item_fields[2].key == "desc"
    panel = bm.parse(EXAMPLES["panel-desc"])
    assert panel.body is not None
    assert spec_for("panel", [it.values() for it in panel.body.items]).entry == "panel-desc"
