"""MarkdownHighlighter: formats on the expected ranges, block states for multi-line constructs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import QApplication

from modu_desktop.ui.editing.highlighter import (
    _COLORS,
    ADMONITION,
    DIRECTIVE,
    FENCE_BACKTICK,
    FENCE_TILDE,
    FRONT_MATTER,
    NORMAL,
    MarkdownHighlighter,
)

DOC = """---
title: 제목
theme: public-blue
---
# 큰 제목

본문 **굵게** 와 *기울임* 그리고 `코드` [링크](https://example.org) ![그림](/img/a.png)

- 목록
> 인용

```
:::hero
title: 코드 안
```

:::cards
title: 카드 제목
columns: 3

- title: 하나 | 둘
  icon: "①"
:::

:::mystery
:::

:::split
left:
- label: a
:::
~~~~
x
~~~~
"""


@pytest.fixture
def doc(qapp: object) -> Iterator[tuple[QTextDocument, MarkdownHighlighter]]:
    document = QTextDocument()
    document.setPlainText(DOC)
    hl = MarkdownHighlighter(document, dark=False)
    hl.rehighlight()
    yield document, hl


def _line_no(document: QTextDocument, text: str) -> int:
    block = document.begin()
    while block.isValid():
        if block.text() == text:
            return block.blockNumber()
        block = block.next()
    raise AssertionError(f"line not found: {text!r}")


def _fmt_at(document: QTextDocument, line: str, col: int, length: int = 1) -> list[QColor]:
    """Foreground colours covering [col, col+length) on the first line equal to ``line``."""
    block = document.findBlockByNumber(_line_no(document, line))
    colors: list[QColor] = []
    for pos in range(col, col + length):
        found = None
        for r in block.layout().formats():
            if r.start <= pos < r.start + r.length:
                found = r.format.foreground().color()
        colors.append(found if found is not None else QColor())
    return colors


def _ranges(document: QTextDocument, line: str) -> list[tuple[int, int, str, int, bool]]:
    block = document.findBlockByNumber(_line_no(document, line))
    return [
        (
            r.start,
            r.length,
            r.format.foreground().color().name(),
            r.format.fontWeight(),
            r.format.fontItalic(),
        )
        for r in block.layout().formats()
    ]


def _light(name: str) -> str:
    return QColor(_COLORS[name][0]).name()


def _is(document: QTextDocument, line: str, col: int, length: int, name: str) -> bool:
    return all(c.name() == _light(name) for c in _fmt_at(document, line, col, length))


def test_front_matter_keys_values_and_state(doc: tuple[QTextDocument, MarkdownHighlighter]) -> None:
    document, _ = doc
    assert document.findBlockByNumber(0).userState() == FRONT_MATTER
    assert _is(document, "---", 0, 3, "fm_delim")
    assert _is(document, "title: 제목", 0, 5, "fm_key")
    assert _is(document, "title: 제목", 6, 3, "fm_value")
    assert _is(document, "theme: public-blue", 0, 5, "fm_key")
    assert document.findBlockByNumber(3).userState() == NORMAL  # closing ---


def test_markdown_inline_and_headings(doc: tuple[QTextDocument, MarkdownHighlighter]) -> None:
    document, _ = doc
    assert _is(document, "# 큰 제목", 0, 1, "heading_marker")
    assert _is(document, "# 큰 제목", 2, 4, "heading")
    line = next(b for b in DOC.splitlines() if b.startswith("본문"))
    bold_at = line.index("**굵게**")
    ranges = _ranges(document, line)
    bold = [r for r in ranges if r[0] <= bold_at < r[0] + r[1]]
    assert bold and bold[-1][3] == QFont.Weight.Bold
    italic_at = line.index("*기울임*")
    assert any(r[0] <= italic_at < r[0] + r[1] and r[4] for r in ranges)
    assert _is(document, line, line.index("`코드`"), 4, "code")
    assert _is(document, line, line.index("링크"), 2, "link")
    assert _is(document, line, line.index("https://example.org"), 19, "url")
    assert _is(document, line, line.index("![그림]"), 2, "image")
    assert _is(document, "- 목록", 0, 1, "list")
    assert _is(document, "> 인용", 0, 4, "quote")
    # Plain text keeps the default format.
    assert _fmt_at(document, line, 0, 1)[0] == QColor()


def test_fenced_code_hides_directives(doc: tuple[QTextDocument, MarkdownHighlighter]) -> None:
    document, _ = doc
    open_no = _line_no(document, "```")
    assert document.findBlockByNumber(open_no).userState() == FENCE_BACKTICK + 3
    assert _is(document, ":::hero", 0, 7, "code")  # not a directive inside the fence
    assert document.findBlockByNumber(_line_no(document, ":::hero")).userState() == (
        FENCE_BACKTICK + 3
    )
    assert _is(document, "title: 코드 안", 0, 5, "code")
    tilde = _line_no(document, "~~~~")
    assert document.findBlockByNumber(tilde).userState() == FENCE_TILDE + 4
    assert document.findBlockByNumber(tilde + 1).userState() == FENCE_TILDE + 4
    assert document.findBlockByNumber(tilde + 2).userState() == NORMAL


def test_directive_blocks(doc: tuple[QTextDocument, MarkdownHighlighter]) -> None:
    document, _ = doc
    opener = _line_no(document, ":::cards")
    assert _is(document, ":::cards", 0, 8, "directive")
    assert document.findBlockByNumber(opener).userState() == DIRECTIVE
    assert _is(document, "title: 카드 제목", 0, 6, "block_key")  # "title:" incl. colon
    assert _fmt_at(document, "title: 카드 제목", 7, 1)[0] == QColor()  # value plain
    assert _is(document, "columns: 3", 0, 8, "block_key")
    item = "- title: 하나 | 둘"
    assert _is(document, item, 0, 1, "block_dash")
    assert _is(document, item, 2, 6, "block_key")
    assert _is(document, item, item.index("|"), 1, "pipe")
    assert _is(document, '  icon: "①"', 2, 5, "block_key")
    assert _is(document, '  icon: "①"', 8, 3, "string")
    closer_no = _line_no(document, "- title: 하나 | 둘") + 2
    assert document.findBlockByNumber(closer_no).text() == ":::"
    assert document.findBlockByNumber(closer_no).userState() == NORMAL
    assert _is(document, "left:", 0, 5, "block_section")


def test_unknown_directive_name_is_flagged(doc: tuple[QTextDocument, MarkdownHighlighter]) -> None:
    document, _ = doc
    assert _is(document, ":::mystery", 0, 3, "directive")
    assert _is(document, ":::mystery", 3, 7, "directive_unknown")
    block = document.findBlockByNumber(_line_no(document, ":::mystery"))
    ranges = block.layout().formats()  # keep the list alive while reading its formats
    styles = [r.format.underlineStyle() for r in ranges if r.start == 3]
    assert styles == [QTextCharFormat.UnderlineStyle.WaveUnderline]


def test_edits_update_multiline_state(qapp: QApplication) -> None:
    document = QTextDocument()
    document.documentLayout()  # contentsChange (which drives the highlighter) needs a layout
    document.setPlainText("intro\n:::hero\ntitle: x\n:::\nafter: y")
    hl = MarkdownHighlighter(document, dark=False)
    qapp.processEvents()  # the initial highlight is delayed to the event loop
    assert hl.document() is document
    assert _is(document, "after: y", 0, 6, "block_key") is False
    # Remove the closing fence: the block now runs on, so "after:" becomes a block key.
    cursor = document.find(":::", document.findBlockByNumber(3).position())
    cursor.select(cursor.SelectionType.LineUnderCursor)
    cursor.removeSelectedText()
    assert document.findBlockByNumber(3).userState() == DIRECTIVE
    assert _is(document, "after: y", 0, 6, "block_key")


def test_dark_palette_uses_dark_colours(qapp: object) -> None:
    document = QTextDocument()
    document.setPlainText("# H\n:::cards\ntitle: t\n:::")
    hl = MarkdownHighlighter(document, dark=False)
    hl.rehighlight()
    assert hl.format_for("heading").foreground().color().name() == _light("heading")
    hl.set_dark(True)
    assert hl.is_dark()
    dark_heading = QColor(_COLORS["heading"][1]).name()
    assert hl.format_for("heading").foreground().color().name() == dark_heading
    assert _fmt_at(document, "# H", 2, 1)[0].name() == dark_heading


def test_colours_are_readable_on_both_bases() -> None:
    def luminance(hex_color: str) -> float:
        c = QColor(hex_color)
        chans = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            chans.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * chans[0] + 0.7152 * chans[1] + 0.0722 * chans[2]

    def contrast(a: str, b: str) -> float:
        la, lb = sorted((luminance(a), luminance(b)), reverse=True)
        return (la + 0.05) / (lb + 0.05)

    for name, (light, dark) in _COLORS.items():
        if name in ("pipe", "hr", "heading_marker", "fence"):
            continue  # punctuation: deliberately subdued
        assert contrast(light, "#ffffff") >= 3.0, (name, light)
        assert contrast(dark, "#1e1e1e") >= 3.0, (name, dark)


def test_admonition_content_is_markdown(qapp: object) -> None:
    document = QTextDocument()
    document.setPlainText(":::tip[제목]\n# 안쪽 제목\nkey: not a block key\n:::\n")
    hl = MarkdownHighlighter(document, dark=False)
    hl.rehighlight()
    assert _is(document, ":::tip[제목]", 3, 3, "directive")
    assert document.findBlockByNumber(0).userState() == ADMONITION
    assert _is(document, "# 안쪽 제목", 2, 5, "heading")
    assert _fmt_at(document, "key: not a block key", 0, 1)[0] == QColor()
    assert document.findBlockByNumber(3).userState() == NORMAL
