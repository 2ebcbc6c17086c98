"""Rich-text edits as a card holds them: what staff type and format, in Korean, with the places
where Markdown and MDX would read something else (emphasis before a particle, tildes in ranges,
braces, angle brackets, dates and numbers at line starts, colons, lists, links, pictures,
tables, quotes, line breaks). ``EDITS`` maps a name (``eNN-topic``) to the card's model;
:func:`model_html` is the HTML that model stands for (what the card shows), to be compared with
the site build of its Markdown."""

from __future__ import annotations

import html

from mdurl import encode

from modu_desktop.core.pageedit.model import (
    BOLD,
    CODE,
    ITALIC,
    STRIKE,
    Block,
    Heading,
    Inline,
    InlinePicture,
    Inlines,
    LineBreak,
    ListBlock,
    ListItem,
    Paragraph,
    Quote,
    RichText,
    Rule,
    Table,
    TextRun,
    normalise,
)

BR = LineBreak()


def _marked(mark: str, *parts: object) -> list[TextRun]:
    out = []
    for node in _flat(parts):
        assert isinstance(node, TextRun)
        out.append(TextRun(node.text, node.marks | {mark}, node.link))
    return out


def b(*parts: object) -> list[TextRun]:
    return _marked(BOLD, *parts)


def i(*parts: object) -> list[TextRun]:
    return _marked(ITALIC, *parts)


def s(*parts: object) -> list[TextRun]:
    return _marked(STRIKE, *parts)


def code(text: str) -> list[TextRun]:
    return [TextRun(text, frozenset({CODE}))]


def link(href: str, *parts: object) -> list[TextRun]:
    out = []
    for node in _flat(parts):
        assert isinstance(node, TextRun)
        out.append(TextRun(node.text, node.marks, encode(href)))
    return out


def pic(src: str, alt: str) -> InlinePicture:
    return InlinePicture(src, alt)


def _flat(parts: tuple[object, ...]) -> list[Inline]:
    out: list[Inline] = []
    for part in parts:
        if isinstance(part, str):
            out.append(TextRun(part))
        elif isinstance(part, list):
            out.extend(_flat(tuple(part)))
        else:
            assert isinstance(part, TextRun | LineBreak | InlinePicture)
            out.append(part)
    return out


def inl(*parts: object) -> Inlines:
    return tuple(_flat(parts))


def p(*parts: object) -> Paragraph:
    return Paragraph(inl(*parts))


def h(level: int, *parts: object) -> Heading:
    return Heading(level, inl(*parts))


def li(*parts: object, sub: tuple[ListBlock, ...] = ()) -> ListItem:
    return ListItem(inl(*parts), sub)


def ul(*items: ListItem) -> ListBlock:
    return ListBlock(False, items)


def ol(*items: ListItem, start: int = 1) -> ListBlock:
    return ListBlock(True, items, start)


def q(*paras: Paragraph) -> Quote:
    return Quote(paras)


def table(header: list[object], *rows: list[object], align: tuple[str, ...] = ()) -> Table:
    width = len(header)
    return Table(
        align or ("",) * width,
        tuple(inl(c) for c in header),
        tuple(tuple(inl(c) for c in r) for r in rows),
    )


def doc(*blocks: Block) -> RichText:
    return normalise(RichText(blocks))


WIKI = "https://ko.wikipedia.org/wiki/부산_(도시)"

EDITS: dict[str, RichText] = {
    "e01-bold-before-particle-paren": doc(p(b("마크다운(Markdown)"), "을 배웁니다.")),
    "e02-bold-before-particle-quote": doc(p(b("‘AI 교육’"), "은 모든 학생의 필수 과목입니다.")),
    "e03-bold-before-particle-plain": doc(p(b("굵게"), "는 잘 닫힙니다.")),
    "e04-italic-before-particle": doc(p(i("(주)부산소프트"), "에서 후원합니다.")),
    "e05-bold-italic-particle": doc(p(b(i("핵심(Core)")), "을 기억하세요.")),
    "e06-strike-before-particle": doc(p(s("폐지(2023)"), "된 제도입니다.")),
    "e07-bold-in-word": doc(p("참가비", b("(무료)"), "이며 간식", b("(제공)"), "도 있습니다.")),
    "e08-bold-percent": doc(p(b("10%"), "의 학생이 ", b("“우수”"), "를 받았습니다.")),
    "e09-bold-line-start-bracket": doc(p(b("「공지」"), "신입생 모집", BR, b("[안내]"), "는 아래")),
    "e10-tilde-range": doc(p("모집 인원은 10~20명, 기간은 3~5일입니다.")),
    "e11-tilde-double": doc(p("A~~B 그리고 ~~C~~ 그리고 ~ 하나")),
    "e12-tilde-line-start": doc(p("~끝~", BR, "~~~ 세 개")),
    "e13-braces": doc(p("{이름} 님께, {{두 겹}} 중괄호와 {/* 주석 아님 */}")),
    "e14-angle-brackets": doc(p("a < b 그리고 <b>태그 아님</b> <br/> <Callout> 그리고 x > y")),
    "e15-angle-line-start": doc(p("> 인용 아님", BR, "<div> 아님")),
    "e16-date-line-start": doc(p("2024. 3. 1. 개강"), p("2024.3.1 표기도 그대로")),
    "e17-dates-after-break": doc(p("일정", BR, "2024. 3. 2. 입학식", BR, "1) 괄호 번호 아님")),
    "e18-number-line-start": doc(p("1. 번호 목록 아님"), p("3) 이것도 아님"), p("10. 열 번째")),
    "e19-hash-line-start": doc(p("#1 해시로 시작", BR, "## 제목 아님")),
    "e20-headings": doc(h(2, "C# 과정 안내"), h(3, "3. 세부 일정"), h(4, "소제목 {중요} #끝")),
    "e21-colons": doc(p("비율 1:1, 시간 10:30, 주소:부산, 끝:")),
    "e22-colon-line-start": doc(p(":::cards 아님", BR, "::leaf 아님", BR, ":이름 아님")),
    "e23-stars-underscores": doc(p("snake_case와 *별표* 그리고 **두 개** 그리고 __밑줄__")),
    "e24-backslashes": doc(p("경로 C:\\Users\\모두 와 끝\\")),
    "e25-brackets": doc(p("[참고] 자료와 [1] 각주 아님, ![그림 아님] 그리고 [링크](아님)")),
    "e26-entities": doc(p("&amp; 그리고 &copy; 그리고 R&D, &#35;")),
    "e27-line-start-markers": doc(p("- 목록 아님", BR, "+ 더하기", BR, "* 별", BR, "=== 줄")),
    "e28-bullet-list": doc(
        ul(li("하나"), li("둘", sub=(ul(li("둘-하나"), li("둘-둘")),)), li("셋"))
    ),
    "e29-numbered-from-three": doc(ol(li("셋째"), li("넷째"), start=3)),
    "e30-nested-mixed": doc(
        ol(li("신청", sub=(ul(li("온라인"), li("방문")),)), li("심사", sub=(ol(li("서류")),)))
    ),
    "e31-list-dates-ranges": doc(ul(li("2024. 3. 1. 개강"), li("10~20명"), li("1. 아님"))),
    "e32-list-bold-particle": doc(ul(li(b("서류(원본)"), "을 제출"), li(b("면접"), "은 온라인"))),
    "e33-two-lists": doc(ul(li("가")), ul(li("나")), ol(li("다")), ol(li("라"))),
    "e34-link": doc(p(link("https://www.pusan.ac.kr", "부산대학교"), "에 오세요.")),
    "e35-link-parens": doc(p(link(WIKI, "위키백과"), "를 보세요. ", link("/docs/intro", "소개"))),
    "e36-link-bold": doc(p(link("https://example.com/a b", b("굵은 링크")), "입니다")),
    "e37-link-brackets": doc(p(link("/docs/intro", "[공지] 안내 (1)"), "를 확인")),
    "e38-picture": doc(p(pic("/img/logo.png", "학교 로고")), p("로고 설명")),
    "e39-picture-inline": doc(p("로고 ", pic("/img/pnu-logo.png", "부산대 [로고]"), " 설명")),
    "e40-table": doc(table(["항목", "내용"], ["기간", "3~5일"], ["인원", "10~20명"])),
    "e41-table-marks": doc(
        table(
            ["이름", b("비고(필수)")],
            [b("홍길동"), ["A | B", BR, "{괄호}"]],
            ["<태그>", link("https://example.com", "링크")],
        )
    ),
    "e42-table-aligned": doc(
        table(["왼쪽", "가운데", "오른쪽"], ["a", "b", "c"], align=("left", "center", "right"))
    ),
    "e43-quote": doc(q(p("인용 ", b("(중요)"), "입니다"), p("둘째 문단 10~20명"))),
    "e44-rule": doc(p("위"), Rule(), p("아래")),
    "e45-line-breaks": doc(p("첫 줄", BR, "둘째 줄", BR, "셋째 줄")),
    "e46-heading-bold-particle": doc(h(2, b("AI(인공지능)"), "의 이해"), p("본문")),
    "e47-code": doc(
        p("명령 ", code("npm run build"), " 실행, ", code("a`b"), " 그리고 ", code("{x}"))
    ),
    "e48-exclaim-before-link": doc(p("와!", link("https://example.com", "링크"), " 끝!")),
    "e49-heading-break": doc(h(3, "둘째", BR, "줄")),
    "e50-korean-quotes": doc(p("“따옴표” ", b("‘강조’"), "는 ", i("「제목」"), "과")),
    "e51-spaces-in-marks": doc(p(b(" 공백 "), "이 있는 ", i("기울임 "), "끝")),
    "e52-nested-marks": doc(
        p(b("굵고 ", TextRun("기울임", frozenset({ITALIC}))), "이 섞인 ", s("취소"), "선")
    ),
    "e53-strike-tilde-inside": doc(p(s("10~20명"), "에서 30명으로 변경")),
    "e54-staff-notice": doc(
        h(2, "2024학년도 ", b("AI·SW(소프트웨어)"), " 특강 안내"),
        p("일시: 2024. 3. 15.(금) 14:00~16:00", BR, "장소: 공학관 {301호}"),
        ul(li(b("대상(학부생)"), "은 누구나"), li("정원 30~40명 <선착순>")),
        p("문의: ", link("mailto:ai@pusan.ac.kr", "ai@pusan.ac.kr")),
    ),
}


# ------------------------------------------------------------------------------ model → HTML
def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _inline_html(content: Inlines) -> str:
    out = []
    for node in content:
        if isinstance(node, LineBreak):
            out.append("<br>")
        elif isinstance(node, InlinePicture):
            out.append(f'<img alt="{_e(node.alt)}" src="{_e(node.src)}">')
        else:
            text = f"<code>{_e(node.text)}</code>" if CODE in node.marks else _e(node.text)
            for mark, tag in ((ITALIC, "em"), (BOLD, "strong"), (STRIKE, "del")):
                if mark in node.marks:
                    text = f"<{tag}>{text}</{tag}>"
            if node.link is not None:
                text = f'<a href="{_e(node.link)}">{text}</a>'
            out.append(text)
    return "".join(out)


def _list_html(block: ListBlock) -> str:
    tag = "ol" if block.ordered else "ul"
    start = f' start="{block.start}"' if block.ordered and block.start != 1 else ""
    items = "".join(
        f"<li>{_inline_html(it.content)}{''.join(_list_html(c) for c in it.children)}</li>"
        for it in block.items
    )
    return f"<{tag}{start}>{items}</{tag}>"


def _block_html(block: Block) -> str:
    if isinstance(block, Paragraph):
        return f"<p>{_inline_html(block.content)}</p>"
    if isinstance(block, Heading):
        return f"<h{block.level}>{_inline_html(block.content)}</h{block.level}>"
    if isinstance(block, ListBlock):
        return _list_html(block)
    if isinstance(block, Quote):
        return "<blockquote>" + "".join(_block_html(x) for x in block.paragraphs) + "</blockquote>"
    if isinstance(block, Rule):
        return "<hr>"
    assert isinstance(block, Table)

    def cell(tag: str, n: int, content: Inlines) -> str:
        align = block.align[n]
        style = f' style="text-align:{align}"' if align else ""
        return f"<{tag}{style}>{_inline_html(content)}</{tag}>"

    head = "".join(cell("th", n, c) for n, c in enumerate(block.header))
    rows = "".join(
        "<tr>" + "".join(cell("td", n, c) for n, c in enumerate(r)) + "</tr>" for r in block.rows
    )
    body = f"<tbody>{rows}</tbody>" if rows else ""
    return f"<table><thead><tr>{head}</tr></thead>{body}</table>"


def model_html(model: RichText) -> str:
    return "".join(_block_html(b) for b in model.blocks)
