"""A picture's description (its alt text) where a page uses it: read, changed, saved (Qt-free).

A place is named by the page, the picture and which of that picture's places on the page it is
(the first, the second …), and it carries the description the person saw. Before anything is
written the page is read again and the place found again the same way: when its description is
no longer the one the person saw, nothing is written (someone changed the page meanwhile).

Only Markdown pictures and HTML pictures carry a description; a block field or the page
settings' picture does not (the site's blocks take none), so those places are shown but not
edited.

Saving is not done here: a page that is not open in the window is changed under its lock like
the web admin's other operations (``core/docops/describe.py``); a page open in the window is
changed in its editor and saved the window's normal way.
"""

from __future__ import annotations

import enum
import html
import re
from dataclasses import dataclass

from modu_desktop.core.pictures.found import PictureUse, page_pictures
from modu_desktop.core.text import Text

__all__ = [
    "AltChange",
    "AltCode",
    "AltResult",
    "change_alt",
    "changed_meanwhile",
    "describable",
    "markdown_alt",
    "places_of",
    "with_alt",
]

# What a Markdown picture's description cannot hold as it is: a backslash, brackets (they end
# the description), and what MDX reads as code: braces (an expression), "<" (a tag), and the
# marks of emphasis and code. Each is written with a backslash, which the site takes off.
_MARKDOWN_SPECIAL = re.compile(r"([\\\[\]{}<>*_`])")


def describable(use: PictureUse) -> bool:
    """The place carries a description (a Markdown or HTML picture)."""
    return use.kind in ("markdown", "html") and use.alt_start is not None


def markdown_alt(alt: str) -> str:
    """``alt`` as a Markdown picture's description: one line, its special signs escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(alt.split()))


def with_alt(text: str, use: PictureUse, alt: str) -> str:
    """``text`` with the description of the place ``use`` set to ``alt``; every other byte kept."""
    if not describable(use) or use.alt_start is None or use.alt_end is None:
        raise ValueError(f"a {use.kind} picture has no description")
    one_line = " ".join(alt.split())
    if use.kind == "markdown":
        written = markdown_alt(one_line)
    elif use.alt is None:  # an <img> without alt: one is added after "<img"
        written = f' alt="{html.escape(one_line, quote=True)}"'
    else:
        written = html.escape(one_line, quote=True)
    return text[: use.alt_start] + written + text[use.alt_end :]


def places_of(text: str, doc_path: str, picture: str) -> list[PictureUse]:
    """The places of the page ``doc_path`` (its text ``text``) that show the picture file
    ``picture``, in text order."""
    return [u for u in page_pictures(text, doc_path) if u.path == picture]


@dataclass(frozen=True)
class AltChange:
    """One description to change: the place as the person saw it, and the new words."""

    doc_id: str
    title: str
    doc_path: str
    picture: str  # the picture file, "static/img/campus.png"
    index: int  # which of that picture's places on the page (0: the first)
    seen: str | None  # the description the person saw (None: the place had none)
    alt: str  # the new description


class AltCode(enum.Enum):
    SAVED = "saved"
    UNCHANGED = "unchanged"  # the description was already this
    LOCKED = "locked"  # someone else is editing the page
    CHANGED = "changed"  # the page changed meanwhile: the place or its description moved on
    NOT_DESCRIBABLE = "not_describable"  # a block field or the page settings
    FAILED = "failed"  # network, permission, GitHub: nothing written as far as we know


@dataclass(frozen=True)
class AltResult:
    code: AltCode
    text: Text
    new_text: str | None = None  # the page's text after the change (SAVED, or for an open page)
    commit_sha: str | None = None

    @property
    def ok(self) -> bool:
        return self.code in (AltCode.SAVED, AltCode.UNCHANGED)

    def user_message(self) -> str:
        return self.text()


def changed_meanwhile(change: AltChange) -> Text:
    return Text(
        "“{title}” changed meanwhile; the description was not changed. Look at the picture "
        "again and try once more.",
        title=change.title,
    )


def change_alt(text: str, change: AltChange) -> AltResult:
    """The page's text with the description changed, or why not (no request: the caller has
    the text — an open page's editor, or the version just read)."""
    places = places_of(text, change.doc_path, change.picture)
    use = places[change.index] if change.index < len(places) else None
    if use is None or use.alt != change.seen:
        return AltResult(AltCode.CHANGED, changed_meanwhile(change))
    if not describable(use):
        return AltResult(
            AltCode.NOT_DESCRIBABLE,
            Text("This place on “{title}” cannot have a description.", title=change.title),
        )
    new_text = with_alt(text, use, change.alt)
    if new_text == text:
        return AltResult(
            AltCode.UNCHANGED,
            Text("The description on “{title}” was already this.", title=change.title),
            new_text,
        )
    return AltResult(
        AltCode.SAVED,
        Text("Changed the picture's description on “{title}”.", title=change.title),
        new_text,
    )
