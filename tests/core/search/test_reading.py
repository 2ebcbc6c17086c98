"""A page read into the fields a person sees on its cards, each character traced to the
Markdown it came from (core/search/reading.py, core/search/inline_map.py)."""

from __future__ import annotations

from modu_desktop.core.search.model import FieldKind, Place
from modu_desktop.core.search.reading import read_page
from tests.helpers.search_pages import ADMISSION


def _by_text(text: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for f in read_page(text):
        out.setdefault(f.text, []).append(f)
    return out


def test_every_card_gives_its_fields_in_page_order_with_places() -> None:
    fields = read_page(ADMISSION)
    got = [(f.place, f.text) for f in fields]
    heading = "2025학년도 일정"
    assert got[:3] == [
        (Place("settings", key="title"), "2025학년도 입학 안내"),
        (Place("settings", key="nav_label"), "입학"),
        (Place("settings", key="description"), "부산대 '모두' 안내"),
    ]
    expected_in_order = [
        (Place("block", key="badge", block="hero"), "2025 ADMISSION"),
        (Place("text", heading=heading, line="heading"), heading),
        (
            Place("text", heading=heading, line="paragraph"),
            "2025학년도 모집은 홈페이지에서 확인 & 신청. 두 번째 줄\n세 번째 줄 코드 2025 🎉",
        ),
        (Place("text", heading=heading, line="item"), "첫째 항목 2025"),
        (Place("text", heading=heading, line="item"), "안쪽 항목"),
        (Place("text", heading=heading, line="item"), "둘째 항목"),
        (Place("text", heading=heading, line="quote"), "인용 2025 둘째 줄"),
        (Place("text", heading=heading, line="cell"), "인원 | 비고"),
        (Place("text", heading=heading, line="cell"), "2025학년도"),
        (Place("block", key="value", block="stats", item=1), "1,200명"),
        (Place("block", block="datatable", item=2, column=1, column_name="과정"), "2025 특강"),
        (Place("block", key="label", block="split", section="left", item=1), "기초 과정"),
        (Place("block", key="title", block="split", section="right", item=1), "2025학년도 원칙"),
        (Place("block", key="buttonText", block="cta"), "2025 안내"),
        (Place("raw", line="raw"), "2025학년도 주의"),
    ]
    positions = [got.index(pair) for pair in expected_in_order]
    assert positions == sorted(positions)
    kinds = {f.text: f.kind for f in fields}
    assert kinds["2025학년도 입학 안내"] is FieldKind.SETTING
    assert kinds["1,200명"] is FieldKind.VALUE
    assert kinds["인용 2025 둘째 줄"] is FieldKind.MARKDOWN
    assert kinds["2025학년도 주의"] is FieldKind.RAW


def test_addresses_icons_choices_and_machine_settings_are_not_words() -> None:
    texts = {f.text for f in read_page(ADMISSION)}
    assert "/docs/2025" not in texts  # a button's address
    assert "🎓" not in texts  # an icon
    assert "ocean-cyan" not in texts and "admission-2025" not in texts  # theme, id


def test_each_character_comes_from_its_own_markdown() -> None:
    fields = _by_text(ADMISSION)
    (para,) = fields[
        "2025학년도 모집은 홈페이지에서 확인 & 신청. 두 번째 줄\n세 번째 줄 코드 2025 🎉"
    ]
    text = para.text

    def pieces(words: str) -> list[str]:
        at = text.index(words)
        return [ADMISSION[a:b] for a, b in para.spans(at, at + len(words))]

    assert pieces("2025학년도") == ["2025", "학년도"]  # the bold mark sits between
    assert pieces("홈페이지에서") == ["홈페이지", "에서"]  # a link's address sits between
    assert pieces("확인 & 신청") == ["확인 &amp; 신청"]
    assert pieces("코드 2025") == ["코드 2025"]
    assert pieces("🎉") == [":tada:"]
    assert pieces("신청. 두") == ["신청.\n두"]  # a line of the paragraph: one space
    (cell,) = fields["인원 | 비고"]
    assert [ADMISSION[a:b] for a, b in cell.spans(0, len(cell.text))] == ["인원 \\| 비고"]
    (quote,) = fields["인용 2025 둘째 줄"]
    assert [ADMISSION[a:b] for a, b in quote.spans(0, len(quote.text))] == ["인용 2025\n> 둘째 줄"]
    (setting,) = fields["부산대 '모두' 안내"]
    assert [ADMISSION[a:b] for a, b in setting.spans(4, 8)] == ["''모두''"]


def test_a_field_starts_where_its_card_does() -> None:
    for f in read_page(ADMISSION):
        if f.place.card == "settings":
            assert f.card_start == 0
        elif f.starts is not None:
            assert f.card_start <= f.starts[0]


def test_windows_line_endings_and_a_byte_order_mark_keep_every_offset() -> None:
    crlf = "\ufeff" + ADMISSION.replace("\n", "\r\n")
    lf, fields = read_page(ADMISSION), read_page(crlf)
    assert [(f.place, f.text) for f in fields] == [(f.place, f.text) for f in lf]
    for before, after in zip(lf, fields, strict=True):
        whole = (0, len(after.text))
        written = "".join(crlf[a:b] for a, b in after.spans(*whole))
        assert written.replace("\r", "") == "".join(ADMISSION[a:b] for a, b in before.spans(*whole))
        assert written  # every field of this page is traced


def test_a_page_typed_on_a_mac_is_read_as_typed() -> None:
    import unicodedata

    nfd = unicodedata.normalize("NFD", "## 입학 안내\n\n모집 요강\n")
    texts = [f.text for f in read_page(nfd)]
    assert texts == [
        unicodedata.normalize("NFD", "입학 안내"),
        unicodedata.normalize("NFD", "모집 요강"),
    ]
