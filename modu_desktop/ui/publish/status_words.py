"""The words for a document's state (``core.publish.status.DocStatus``), in one place: the
status bar, the editor's saved/unsaved label and its publishing line all take their sentence
from here, so the same state reads the same everywhere."""

from __future__ import annotations

from html import escape

from modu_desktop.core.locks import words
from modu_desktop.core.publish.status import UNSAVED_PHASES, DocStatus, EditPhase, PublishPhase
from modu_desktop.i18n import tr


def publishing_words(p: PublishPhase) -> tuple[str, str]:
    """(text, kind) of a publishing state: the status bar's label and the publishing line's
    last step say exactly this."""
    return {
        PublishPhase.NONE: ("", "info"),
        PublishPhase.WAITING: (tr("Waiting to publish"), "info"),
        PublishPhase.BUILDING: (tr("Publishing…"), "info"),
        PublishPhase.PUBLISHED: (tr("✔ Published"), "ok"),
        PublishPhase.FAILED: (tr("✖ Publishing failed"), "error"),
        PublishPhase.CHECKING: (tr("✖ Publishing failed (finding out why…)"), "error"),
        PublishPhase.ON_HOLD: (tr("‖ Publishing on hold"), "warning"),
        PublishPhase.SKIPPED: (tr("Not published (skipped)"), "info"),
        PublishPhase.UNKNOWN: (tr("Publishing status unknown"), "info"),
    }[p]


def status_words(status: DocStatus) -> tuple[str, str]:
    """:func:`publishing_words` of a document's state; a page that is not published is never
    said to be: its good build is "the site is up to date", and the page stays off it."""
    if status.unpublished and status.publishing is PublishPhase.PUBLISHED:
        return tr("✔ Site updated; this page is not published"), "ok"
    return publishing_words(status.publishing)


def save_words(phase: EditPhase | None) -> tuple[str, str]:
    """(text, kind) of the editor's side: the label beside the Save button."""
    return {
        None: ("", "info"),
        EditPhase.CLEAN: (tr("✔ Saved"), "ok"),
        EditPhase.UNSAVED: (tr("● Not saved yet"), "warning"),
        EditPhase.CHECKING: (tr("Checking before saving…"), "info"),
        EditPhase.SAVING: (tr("Saving…"), "info"),
        EditPhase.QUEUED: (tr("● Waiting to save"), "warning"),
        EditPhase.READ_ONLY: (tr("Read-only"), "info"),
    }[phase]


_COLOUR = {"ok": "#1a7f37", "error": "#b42318", "warning": "#9a5b00", "info": "#334155"}
_MUTED = "#6b7280"


def _span(text: str, kind: str, *, bold: bool = False) -> str:
    weight = "font-weight:600;" if bold else ""
    return f"<span style='color:{_COLOUR[kind]};{weight}'>{escape(text)}</span>"


def publishing_line(status: DocStatus, now: float) -> str:
    """The line under the editor (rich text), or "" when there is nothing to say.

    With the editor showing what was saved: "✔ Saved → <publishing>". Once the text moved on
    (unsaved, saving, waiting to save) it speaks of the last save, with its time, never of
    the text on screen; a document that cannot be saved here shows no line."""
    p = status.publishing
    if p is PublishPhase.NONE or status.phase is EditPhase.READ_ONLY:
        return ""
    text, kind = status_words(status)
    if status.phase in UNSAVED_PHASES:
        at = words.when(status.saved_at, now)() if status.saved_at else ""
        head = tr("Last save {when}:", when=at) if at else tr("Last save:")
        return f"<span style='color:{_MUTED}'>{escape(head)} {escape(text)}</span>"
    line = _span(tr("✔ Saved"), "ok") + " → " + _span(text, kind, bold=True)
    note = ""
    stop = status.stop
    if p is PublishPhase.ON_HOLD and stop is not None and stop.pages:
        note = tr(
            "published with the others once “{doc}” is fixed",
            doc=stop.pages[0].label,
        )
    elif p is PublishPhase.FAILED and status.breaks_site is not None:
        note = tr("this page stops the site from being built")
    else:
        note = {
            "no-run": tr("(no publishing run was started for this save)"),
            "no-access": tr("(this sign-in cannot see the publishing state)"),
            "timeout": tr("(still not finished; look again later)"),
            "skipped": tr("(publishing was skipped for this save)"),
            "cancelled": tr("(publishing was cancelled)"),
        }.get(status.detail, "")
    if note:
        sep = "" if note.startswith("(") else "— "
        line += f" <span style='color:{_MUTED}'>{sep}{escape(note)}</span>"
    return line


def status_bar_words(status: DocStatus, title: str | None, others: int = 0) -> tuple[str, str]:
    """The status bar's publishing label; ``title`` names the document when it is not the one
    on screen (the last one saved), and ``others`` counts the pages saved with it in the same
    commit (a change of many pages is told as one: "“장학금 연습” 외 1개 문서: 게시 대기 중")."""
    text, kind = status_words(status)
    if text and title and others:
        text = tr("“{doc}” and {n} other page(s): {state}", doc=title, n=others, state=text)
    elif text and title:
        text = tr("“{doc}”: {state}", doc=title, state=text)
    return text, kind
