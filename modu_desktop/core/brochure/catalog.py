"""What each brochure block holds, in words a non-programmer reads (Qt-free).

One :class:`BlockSpec` per entry of the “블록 넣기” picker: its name and a one-line description,
the fields of the block (``key: value`` lines) and of its list items, and a filled-in example from
the site's guide (:mod:`modu_desktop.core.brochure.examples`). The keys and their meaning follow the
guide's tables (``docs/99-template.md``) and the site's block components.

The picker shows 18 entries: the 17 block kinds the site draws (its 18 directive names count
``chapterheader`` and ``chapter-header`` as one), with ``panel`` in both forms the guide documents
(a list per card, or a sentence per card).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from modu_desktop.core.brochure.block_model import split_pipes
from modu_desktop.core.brochure.cells import alignment
from modu_desktop.core.brochure.examples import EXAMPLES
from modu_desktop.core.brochure.syntax import ALIASES
from modu_desktop.i18n import tr


@dataclass(frozen=True, slots=True)
class FieldSpec:
    key: str
    kind: str = "text"  # "text" | "long" | "pipes" | "bool" | "choice" | "number"
    choices: tuple[str, ...] = ()
    name_en: str = ""  # where the key means something else in this block (a table's columns)

    def value_text(self, value: str) -> str:
        """``value`` as a person reads it: a choice by its name, a switch as 예 / 아니요."""
        if self.kind == "bool":
            return tr("yes") if value.strip().lower() == "true" else tr("no")
        if self.key == "align":
            words = [choice_label("align", alignment(w)) for w in split_pipes(value)]
            return " | ".join(words)
        return choice_label(self.key, value)

    @property
    def label(self) -> str:
        if self.name_en:
            qualified = f"block field|{self.name_en}"
            text = tr(qualified)
            return self.name_en if text == qualified else text
        return field_label(self.key)


@dataclass(frozen=True, slots=True)
class BlockSpec:
    entry: str  # picker id, e.g. "panel-desc"
    kind: str  # the block kind, e.g. "panel"
    name_en: str
    description_en: str
    fields: tuple[FieldSpec, ...]
    item_fields: tuple[FieldSpec, ...] = ()
    left_fields: tuple[FieldSpec, ...] = ()  # split
    right_fields: tuple[FieldSpec, ...] = ()  # split

    @property
    def name(self) -> str:
        return tr(self.name_en)

    @property
    def description(self) -> str:
        return tr(self.description_en)

    @property
    def example(self) -> str:
        return EXAMPLES[self.entry]


def _f(*keys: str) -> tuple[FieldSpec, ...]:
    out = []
    for k in keys:
        if k in ("accent", "dark", "left-dark"):
            out.append(FieldSpec(k, "bool"))
        elif k == "columns":
            out.append(FieldSpec(k, "choice", ("2", "3", "4")))
        elif k == "variant":
            out.append(FieldSpec(k, "choice", ("elevated", "outlined")))
        elif k in ("items", "bullets", "align"):
            out.append(FieldSpec(k, "pipes"))
        elif k in ("description", "desc", "text"):
            out.append(FieldSpec(k, "long"))
        else:
            out.append(FieldSpec(k))
    return tuple(out)


CATALOG: tuple[BlockSpec, ...] = (
    BlockSpec(
        "hero",
        "hero",
        "Top banner",
        "The big title band at the top of a page: badge, title and a short description.",
        _f("badge", "title", "description"),
    ),
    BlockSpec(
        "kpi",
        "kpi",
        "Key figures in a row",
        "A few big numbers side by side, each with a name and a note.",
        _f("subtitle", "title"),
        _f("label", "value", "sub"),
    ),
    BlockSpec(
        "stats",
        "stats",
        "Statistics cards",
        "Like key figures, but each number sits on its own card.",
        _f("title", "subtitle"),
        _f("label", "value", "sub"),
    ),
    BlockSpec(
        "cards",
        "cards",
        "Card grid",
        "Cards with an icon, a title and a description, in a grid.",
        _f("title", "subtitle", "columns", "variant"),
        _f("title", "description", "icon"),
    ),
    BlockSpec(
        "panel",
        "panel",
        "Panel with lists",
        "A coloured header bar over boxes, each with an icon, a title and a short list.",
        _f("header", "headersub", "columns"),
        _f("icon", "title", "items"),
    ),
    BlockSpec(
        "panel-desc",
        "panel",
        "Panel with sentences",
        "The same panel, with one explaining sentence in each box instead of a list.",
        _f("header", "headersub", "columns"),
        _f("icon", "title", "desc"),
    ),
    BlockSpec(
        "stepper",
        "stepper",
        "Steps across",
        "Steps side by side, for a plan or a procedure, each with its own details.",
        _f("header", "headersub"),
        _f("phase", "period", "title", "items"),
    ),
    BlockSpec(
        "timeline",
        "timeline",
        "Timeline",
        "Numbered stages from top to bottom; one can be highlighted.",
        _f("title", "subtitle"),
        _f("phase", "title", "description", "accent"),
    ),
    BlockSpec(
        "strategy",
        "strategy",
        "Strategy cards",
        "Cards on a dark background, each led by one big letter.",
        _f("title", "subtitle"),
        _f("letter", "title", "desc"),
    ),
    BlockSpec(
        "alphagrid",
        "alphagrid",
        "Letter badge grid",
        "Coloured letter badges with a label, for a model spelled by its initials.",
        _f("title", "subtitle", "columns"),
        _f("letter", "label", "sub"),
    ),
    BlockSpec(
        "roadmap",
        "roadmap",
        "Roadmap track",
        "A compact track of stages, each with a title and short bullet points.",
        _f("title", "subtitle"),
        _f("phase", "title", "bullets"),
    ),
    BlockSpec(
        "badges",
        "badges",
        "Round badges",
        "A row of round coloured badges with a letter and a word.",
        _f("title", "subtitle", "dark"),
        _f("letter", "label"),
    ),
    BlockSpec(
        "chapters",
        "chapters",
        "Chapter cards",
        "Cards for a table of contents, each with a category, a title and a link.",
        _f("title", "subtitle", "columns"),
        _f("category", "title", "description", "link"),
    ),
    BlockSpec(
        "quote",
        "quote",
        "Quotation",
        "A highlighted quotation with the speaker's name and position.",
        _f("text", "author", "role", "accent"),
    ),
    BlockSpec(
        "cta",
        "cta",
        "Call to action",
        "A message with a button that takes the reader to another page.",
        _f("title", "description", "buttonText", "buttonLink"),
    ),
    BlockSpec(
        "split",
        "split",
        "Left and right panels",
        "Two panels side by side: figures on the left, a numbered list on the right.",
        _f("left-header", "left-sub", "left-dark", "right-header", "right-sub"),
        (),
        _f("label", "value", "desc"),
        _f("num", "title", "desc"),
    ),
    BlockSpec(
        "datatable",
        "datatable",
        "Data table",
        "A table with column headings, for quotas or admission schedules.",
        (
            *_f("header", "headersub"),
            # the headings, not a number of columns as in the other blocks
            FieldSpec("columns", "pipes", name_en="Column headings (separate with |)"),
            *_f("align", "note"),
        ),
    ),
    BlockSpec(
        "chapter-header",
        "chapter-header",
        "Chapter heading",
        "A chapter number and label beside the chapter's title.",
        _f("chapter", "label", "title", "subtitle"),
    ),
)

BY_ENTRY: dict[str, BlockSpec] = {s.entry: s for s in CATALOG}

_LABELS: dict[str, str] = {
    "badge": "Badge",
    "title": "Title",
    "subtitle": "Subtitle (English)",
    "description": "Description",
    "desc": "Description",
    "columns": "Columns",
    "variant": "Style",
    "header": "Header",
    "headersub": "Header subtitle",
    "icon": "Icon (emoji)",
    "label": "Label",
    "value": "Value",
    "sub": "Note",
    "phase": "Stage",
    "period": "Period",
    "items": "Details (separate with |)",
    "bullets": "Bullet points (separate with |)",
    "accent": "Highlight",
    "dark": "Dark background",
    "letter": "Letter",
    "category": "Category",
    "link": "Link",
    "text": "Quotation",
    "author": "Speaker",
    "role": "Position",
    "buttonText": "Button text",
    "buttonLink": "Button link",
    "left-header": "Left title",
    "left-sub": "Left subtitle",
    "left-dark": "Dark left panel",
    "right-header": "Right title",
    "right-sub": "Right subtitle",
    "num": "Number",
    "align": "Column alignment (separate with |)",
    "note": "Note under the table",
    "chapter": "Chapter number",
}


_CHOICES: dict[tuple[str, str], str] = {
    ("variant", "elevated"): "With a shadow",
    ("variant", "outlined"): "With an outline",
    ("variant", "accent"): "In the accent colour",
    ("align", "left"): "Left",
    ("align", "center"): "Centre",
    ("align", "right"): "Right",
}


def choice_label(key: str, value: str) -> str:
    """A field's value by the name the form gives it (``variant: outlined`` → "테두리"); a
    value the guide does not name stays as written."""
    en = _CHOICES.get((key, value.strip()))
    if not en:
        return value
    qualified = f"block choice|{en}"
    text = tr(qualified)
    return en if text == qualified else text


def field_label(key: str) -> str:
    """A field's name for the form (the key itself when the guide does not know it). The
    catalogue entries are ``"block field|<English>"``, so short words like "Position" do not
    clash with other features' texts."""
    en = _LABELS.get(key)
    if not en:
        return key
    qualified = f"block field|{en}"
    text = tr(qualified)
    return en if text == qualified else text


def spec_for(kind: str, items: Sequence[Mapping[str, str]] = ()) -> BlockSpec:
    """The spec that fits a parsed block best (``panel`` with ``desc:`` items → the sentence
    form)."""
    kind = ALIASES.get(kind, kind)
    if kind == "panel" and any("desc" in it and "items" not in it for it in items):
        return BY_ENTRY["panel-desc"]
    return BY_ENTRY[kind]
