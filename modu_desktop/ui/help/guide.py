"""사용 안내: a short guide inside the app (what to do first, the cards of a page, saving,
locks, practice mode)."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from modu_desktop.i18n import tr
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.shortcuts import keys_text, page_keys_text


def guide_sections() -> list[tuple[str, str]]:
    """(heading, paragraph) pairs in the interface language."""
    return _writing_sections() + _working_sections()


def _writing_sections() -> list[tuple[str, str]]:
    """Opening a page and writing it: cards, text boxes, blocks, the original text."""
    return [
        (
            tr("Open a document"),
            tr(
                "Choose a document in the list on the left and press Enter (or double-click). "
                "Type in the filter box to find it by title or file name."
            ),
        ),
        (
            tr("A page is made of cards"),
            tr(
                "An open page shows as cards, from top to bottom as the site shows it: Page "
                "settings at the top (the title, the name and order in the menu), text boxes for "
                "running text, and a card with named fields for each block (cards, tables, "
                "timelines and the like). The preview beside them shows the page as the site "
                "will."
            ),
        ),
        (
            tr("Writing in a text box"),
            tr(
                "Type as in a word processor. The toolbar's first button, Heading, makes the "
                "line a large, medium or small heading, or body text again. Bold ({bold}), "
                "italic ({italic}), a link ({link}), lists, a quotation and a table are on the "
                "same toolbar; Shift+Enter starts a new line in the same paragraph. Picture puts "
                "a picture from this computer into the text.",
                bold=page_keys_text("bold"),
                italic=page_keys_text("italic"),
                link=page_keys_text("link"),
            ),
        ),
        (
            tr("Adding, moving and removing cards"),
            tr(
                "Each card has ▲ and ▼ to move it, ＋ to add a text box or a block above or "
                "below it, and ✕ to remove it; Undo on the notice, or {undo}, brings it back. "
                "＋ Text box and ＋ Block… under the last card add one at the end, and Insert "
                "block ({block}) adds one where you are.",
                undo=keys_text("undo").split(", ")[0],
                block=keys_text("insertBlock"),
            ),
        ),
        (
            tr("Edit original text (for the advanced)"),
            tr(
                "Edit original text ({raw}) shows the whole page as Markdown, the text the "
                "site is made from, and back to the cards. Parts the cards cannot show appear "
                "on the page as “Original text” cards and are kept exactly as written. You do "
                "not need it for everyday work.",
                raw=keys_text("rawView"),
            ),
        ),
    ]


def _working_sections() -> list[tuple[str, str]]:
    """Saving and publishing, working beside others, and what to do when things go wrong."""
    return [
        (
            tr("Save and publish"),
            tr(
                "Save ({keys}) sends your text to GitHub; the site is rebuilt and published a few "
                "minutes later. The line under the toolbar says when the page is online.",
                keys=keys_text("save"),
            ),
        ),
        (
            tr("When someone else is editing"),
            tr(
                "Only one person edits a document at a time. If someone else has it open, the app "
                "says who and since when: you can read it, be told when it is free, or take it "
                "over when they have really stopped."
            ),
        ),
        (
            tr("Nothing you type is lost"),
            tr(
                "What you type is kept on this computer every few seconds. If the connection "
                "drops, a save waits and is sent when GitHub answers again; after a crash the "
                "app offers your text back at the next start."
            ),
        ),
        (
            tr("Practice mode"),
            tr(
                "Practice mode (the Start menu's “Modu Desktop practice mode”, or “Try it in "
                "practice mode” on the sign-in screen) edits a practice copy on this computer "
                "only. The real site is never touched, so try anything there."
            ),
        ),
        (
            tr("Bigger text"),
            tr(
                "View → Bigger text ({bigger}), Smaller text ({smaller}), Original size "
                "({reset}). The preview has its own zoom: Ctrl and the mouse wheel over it, or "
                "the − and + under it.",
                bigger=keys_text("zoomIn"),
                smaller=keys_text("zoomOut"),
                reset=keys_text("zoomReset"),
            ),
        ),
        (
            tr("When something goes wrong"),
            tr(
                "Help → Report a problem makes one file (a zip) with the app's recent log and "
                "its self-test, and opens the folder it is in. Send that file to the person who "
                "helps you: it holds no token and no personal folder names."
            ),
        ),
        (
            tr("When the token expires"),
            tr(
                "A GitHub token works for a limited time. A week before it expires the app "
                "says so. Then choose File → Sign out, make a new token with “Create a token” on "
                "the sign-in screen, and paste it there."
            ),
        ),
    ]


def guide_html() -> str:
    parts = [f"<h2>{escape(tr('Using Modu Desktop'))}</h2>"]
    for heading, body in guide_sections():
        parts.append(f"<h3>{escape(heading)}</h3><p>{escape(body)}</p>")
    return "".join(parts)


class GuideDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guideDialog")
        self.setWindowTitle(tr("Using Modu Desktop"))
        lay = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setObjectName("guideText")
        self.browser.setOpenExternalLinks(False)
        self.browser.setHtml(guide_html())
        lay.addWidget(self.browser, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        fit_to_screen(self, 640, 620)
