"""How the search's places and refusals are said (Qt-free): each function returns a
:class:`~modu_desktop.core.text.Text` (call it for the current language).

A place is told as the cards show it, from the outside in: "통계 카드 › 항목 2 › 값",
"페이지 설정 › 제목", "‘일정’ 글 상자", "데이터 표 › 행 3 › 인원". Block and field names are
the block picker's (:mod:`modu_desktop.core.brochure.catalog`); a field's name is worded when
the place is, in the language of the moment.
"""

from __future__ import annotations

from modu_desktop.core.brochure import catalog
from modu_desktop.core.locks import words as lock_words
from modu_desktop.core.search.model import NotReplaceable, PageLeftOut, PageLeftOutReason, Place
from modu_desktop.core.text import Text

__all__ = ["place", "refusal", "left_out"]

_SETTINGS = {
    "title": "Title",
    "nav_label": "Menu name",
    "sidebar_label": "Menu name",
    "description": "Page description",
}


class _Label(Text):
    """A block field's name as the block form shows it, worded by the catalogue (a field the
    block's own table names differently, as a data table's column headings, by that name)."""

    __slots__ = ()

    def __init__(self, key: str, entry: str, section: str, item: int) -> None:
        super().__init__("{key}", key=key, entry=entry, section=section, item=item)

    def __call__(self, lang: str | None = None) -> str:
        key = str(self.fields["key"])
        spec = catalog.BY_ENTRY.get(str(self.fields["entry"]))
        if spec is not None:
            section, item = self.fields["section"], self.fields["item"]
            if section:
                fields = spec.left_fields if section == "left" else spec.right_fields
            else:
                fields = spec.item_fields if item else spec.fields
            for f in fields:
                if f.key == key:
                    return f.label
        return catalog.field_label(key)


def _path(parts: list[Text]) -> Text:
    out = parts[0]
    for part in parts[1:]:
        out = Text("{outer} › {inner}", outer=out, inner=part)
    return out


def place(where: Place) -> Text:
    """The place as a path from the card to the field."""
    if where.card == "settings":
        return _path([Text("Page settings"), Text(_SETTINGS.get(where.key, where.key))])
    if where.card == "raw":
        return Text("Original text")
    if where.card == "text":
        if where.heading:
            return Text("Text box under “{heading}”", heading=where.heading)
        return Text("Text box")
    spec = catalog.BY_ENTRY.get(where.block)
    parts = [Text(spec.name_en) if spec is not None else Text("{name}", name=where.block)]
    if where.section:
        parts.append(Text("Left side") if where.section == "left" else Text("Right side"))
    if where.column:
        parts.append(Text("Row {n}", n=where.item))
        name = where.column_name
        parts.append(Text("{name}", name=name) if name else Text("Column {n}", n=where.column))
        return _path(parts)
    if where.item:
        parts.append(Text("Item {n}", n=where.item))
    if where.key:
        parts.append(_Label(where.key, where.block, where.section, where.item))
    return _path(parts)


def refusal(reason: NotReplaceable) -> Text:
    """Why one hit is not replaced, in a short plain sentence."""
    return {
        NotReplaceable.CROSSES_MARKS: Text(
            "Part of these words is bold, italic or a link and part is not: change them in the "
            "page itself."
        ),
        NotReplaceable.IN_PICTURE: Text("These words describe a picture."),
        NotReplaceable.ACROSS_LINES: Text("These words run over a line break."),
        NotReplaceable.SOURCE_UNCLEAR: Text(
            "This text is written in a way the replacement cannot follow: change it in the "
            "page itself."
        ),
        NotReplaceable.READS_DIFFERENTLY: Text(
            "With the new words this part of the page would look different: change it in the "
            "page itself."
        ),
        NotReplaceable.BREAKS_FIELD: Text(
            "The new words cannot go into this field (a line break, a | or a quotation mark)."
        ),
        NotReplaceable.NOT_FOUND: Text("These words are no longer there."),
    }[reason]


def left_out(page: PageLeftOut) -> Text:
    """Why a page is left out of a replacement: who holds it and since when, told as every
    lock is told (:func:`modu_desktop.core.locks.words.line`)."""
    if page.reason is PageLeftOutReason.LOCKED and page.lock is not None:
        return lock_words.line(lock_words.Holding.of(page.lock), page.title)
    if page.reason is PageLeftOutReason.UNSAVED_HERE:
        return Text(
            "“{doc}” is open here with changes not saved yet: save or close it first.",
            doc=page.title,
        )
    return Text("Nothing on “{doc}” can be replaced where it is.", doc=page.title)
