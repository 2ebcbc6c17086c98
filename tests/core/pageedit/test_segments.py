"""A document as cards: the segments join to the document byte for byte, a card the user did not
touch is written back byte for byte, an edited card changes only its own lines, and what a card
cannot hold is a raw card."""

from __future__ import annotations

from pathlib import Path

import pytest

from modu_desktop.core.pageedit.model import Paragraph, RichText, TextRun
from modu_desktop.core.pageedit.reading import from_markdown
from modu_desktop.core.pageedit.segments import split_cards
from modu_desktop.core.pageedit.writing import rewrite

ROOT = Path(__file__).resolve().parents[3]
REAL_DOCS = sorted(
    [
        *(ROOT / "tests/fixtures/pnu-modu/docs").glob("*.md"),
        *(ROOT / "tests/fixtures/pnu-modu-site/docs").glob("*.md"),
        *(ROOT / "modu_desktop/sandbox/repo/seed_data/docs").glob("*.md"),
    ]
)


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def test_there_are_real_documents() -> None:
    assert len(REAL_DOCS) >= 24


@pytest.mark.parametrize("path", REAL_DOCS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_real_document_splits_into_cards_and_back(path: Path) -> None:
    text = _read(path)
    segments = split_cards(text)
    assert "".join(s.text(text) for s in segments) == text
    pos = 0
    for seg in segments:
        assert seg.start == pos
        pos = seg.end
    assert any(s.kind == "block" for s in segments)
    for seg in segments:
        if seg.kind == "text":
            source = seg.text(text)
            model = RichText(tuple(b.block for b in seg.blocks))
            written = rewrite(source, seg.blocks, model)
            assert written.text == source and written.exact
        if seg.kind == "gap":
            assert not seg.text(text).strip()


def test_line_endings_and_bom_are_kept() -> None:
    text = (
        "\ufeff---\r\ntitle: 가\r\n---\r\n\r\n본문  \r\n둘째 줄\r\n\r\n"
        ":::hero\r\ntitle: 히어로\r\n:::\r\n"
    )
    segments = split_cards(text)
    assert "".join(s.text(text) for s in segments) == text
    assert [s.kind for s in segments if s.kind != "gap"] == ["front_matter", "text", "block"]


def test_an_edited_text_card_changes_only_its_own_paragraph() -> None:
    text = _read(ROOT / "modu_desktop/sandbox/repo/seed_data/docs/05-sandbox-notes.md")
    seg = next(s for s in split_cards(text) if s.kind == "text")
    source = seg.text(text)
    blocks = [b.block for b in seg.blocks]
    index = next(n for n, b in enumerate(blocks) if isinstance(b, Paragraph))
    blocks[index] = Paragraph((TextRun("새로 쓴 문단은 10~20명입니다."),))
    written = rewrite(source, seg.blocks, RichText(tuple(blocks)))
    assert written.exact
    old = seg.blocks[index]
    assert written.text == (
        source[: old.start] + "새로 쓴 문단은 10\\~20명입니다." + source[old.end :]
    )
    new_document = text[: seg.start] + written.text + text[seg.end :]
    assert new_document.replace("새로 쓴 문단은 10\\~20명입니다.", source[old.start : old.end]) == (
        text
    )


def test_a_long_card_rewritten_knows_where_each_block_is() -> None:
    paras = [f"{n}번째 문단, **굵게**와 10\\~20명." for n in range(60)]
    source = "\n\n".join(paras)
    seg = next(s for s in split_cards(source) if s.kind == "text")
    blocks = [b.block for b in seg.blocks]
    blocks[30] = Paragraph((TextRun("고친 문단 {이름}"),))
    blocks.insert(45, Paragraph((TextRun("새 문단 <b>"),)))
    written = rewrite(source, seg.blocks, RichText(tuple(blocks)))
    assert written.exact
    assert written.text == "\n\n".join(
        paras[:30] + ["고친 문단 \\{이름\\}"] + paras[31:45] + ["새 문단 \\<b>"] + paras[45:]
    )
    assert [b.block for b in written.blocks] == blocks
    for sb in written.blocks:
        assert from_markdown(written.text[sb.start : sb.end]) == RichText((sb.block,))


def test_a_new_paragraph_between_two_keeps_both_neighbours_bytes() -> None:
    source = "첫 문단  \n이어지는 줄\n\n\n\n*  별표 목록\n*  둘째"
    seg = next(s for s in split_cards(source) if s.kind == "text")
    blocks = [b.block for b in seg.blocks]
    blocks.insert(1, Paragraph((TextRun("끼워 넣은 문단"),)))
    written = rewrite(source, seg.blocks, RichText(tuple(blocks)))
    assert written.exact
    assert written.text == "첫 문단  \n이어지는 줄\n\n끼워 넣은 문단\n\n*  별표 목록\n*  둘째"


def test_a_list_written_next_to_a_list_stays_a_list_of_its_own() -> None:
    source = "- 가\n- 나"
    seg = next(s for s in split_cards(source) if s.kind == "text")
    first = seg.blocks[0].block
    written = rewrite(source, seg.blocks, RichText((first, first)))
    assert written.exact
    assert written.text == "- 가\n- 나\n\n* 가\n* 나"


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (":::note\n알림 **굵게**\n:::\n", ["raw"]),
        (":::unknownblock\ntitle: 모르는 블록\n:::\n", ["raw"]),
        ("문단\n\n```\n:::hero\ntitle: 코드 안\n:::\n```\n\n끝", ["text", "raw", "text"]),
        ('<Callout type="info">\n\n알림\n\n</Callout>\n', ["raw", "text", "raw"]),
        ("[정의]: https://example.com\n\n[정의] 링크", ["raw"]),
        ("- [ ] 할 일\n- [x] 한 일", ["raw"]),
        ("문단[^1]\n\n[^1]: 각주", ["raw"]),
        ("<div>상자</div> 뒤에 글", ["raw"]),
        (":::cards\ntitle: 닫히지 않은 블록\n\n- title: 하나\n", ["raw"]),
        ("## 제목\n\n문단\n\n:::hero\ntitle: 가\n:::\n\n> 인용", ["text", "block", "text"]),
    ],
)
def test_what_a_card_cannot_hold_is_a_raw_card(text: str, kinds: list[str]) -> None:
    segments = split_cards(text)
    assert "".join(s.text(text) for s in segments) == text
    assert [s.kind for s in segments if s.kind != "gap"] == kinds


def test_a_bom_before_a_block_is_no_card() -> None:
    text = "\ufeff:::hero\ntitle: 가\n:::\n"
    segments = split_cards(text)
    assert "".join(s.text(text) for s in segments) == text
    assert [s.kind for s in segments if s.kind != "gap"] == ["block"]
