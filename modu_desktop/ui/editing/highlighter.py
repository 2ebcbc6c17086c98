"""Syntax highlighting for brochure Markdown: Markdown, front matter and ``:::`` blocks."""

from __future__ import annotations

import re

from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QGuiApplication,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)

from modu_desktop.core.brochure.syntax import CLOSER, FENCE, OPENER, directive_kind

# Block states (QTextBlock.userState). -1 (Qt's default) and NORMAL mean "plain Markdown".
NORMAL = 0
FRONT_MATTER = 1
DIRECTIVE = 2
ADMONITION = 3  # inside :::note … ::: (Markdown content)
FENCE_BACKTICK = 100  # + fence length
FENCE_TILDE = 200  # + fence length

# (light palette colour, dark palette colour)
_COLORS: dict[str, tuple[str, str]] = {
    "heading": ("#1a4fb5", "#8ab4ff"),
    "heading_marker": ("#7d9ad6", "#5f7fb8"),
    "code": ("#b3361a", "#f2a57e"),
    "fence": ("#6b7280", "#9ca3af"),
    "link": ("#0b6e99", "#6cc7ef"),
    "url": ("#6a737d", "#9aa4ae"),
    "image": ("#8a3ffc", "#c4a5ff"),
    "list": ("#c2410c", "#fdba74"),
    "quote": ("#4d7c0f", "#a3d977"),
    "hr": ("#9ca3af", "#6b7280"),
    "html": ("#a21caf", "#f0abfc"),
    "fm_delim": ("#7c3aed", "#c4b5fd"),
    "fm_key": ("#0e7490", "#67e8f9"),
    "fm_value": ("#9a3412", "#fdba74"),
    "fm_comment": ("#6b7280", "#9ca3af"),
    "directive": ("#7c3aed", "#d8b4fe"),
    "directive_unknown": ("#b91c1c", "#fca5a5"),
    "block_key": ("#0e7490", "#5eead4"),
    "block_section": ("#be185d", "#f9a8d4"),
    "block_dash": ("#c2410c", "#fdba74"),
    "pipe": ("#9ca3af", "#6b7280"),
    "string": ("#15803d", "#86efac"),
}

_HEADING_RE = re.compile(r"^(\s{0,3}#{1,6})(\s+.*|\s*)$")
_QUOTE_RE = re.compile(r"^\s{0,3}>")
_HR_RE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_LIST_RE = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])(\s+)")
_FM_KEY_RE = re.compile(r"^(\s*)([A-Za-z0-9_-]+)(\s*:)(.*)$")
_BLOCK_KEY_RE = re.compile(r"^(\s*(?:-\s+)?)([A-Za-z0-9_-]+)(:)(?=\s|$)(.*)$")
_BLOCK_DASH_RE = re.compile(r"^(\s*)(-)(\s|$)")
_SECTION_RE = re.compile(r"^\s*(left|right):\s*$")
_BOLD_RE = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC_RE = re.compile(
    r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?!\*)|(?<![_\w])_(?=\S)(.+?)(?<=\S)_(?!\w)"
)
_CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1")
_IMAGE_RE = re.compile(r"!\[([^\]]*)\]\(([^)]*)\)")
_LINK_RE = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)]*)\)")
_HTML_RE = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
_QUOTED_RE = re.compile(r"\"[^\"]*\"|'[^']*'")


def _is_dark_palette() -> bool:
    app = QGuiApplication.instance()
    if app is None:
        return False
    base = QGuiApplication.palette().color(QPalette.ColorRole.Base)
    return base.lightness() < 128


class MarkdownHighlighter(QSyntaxHighlighter):
    """Highlights Markdown, ``---`` front matter and ``:::name`` brochure blocks.

    Multi-line constructs use the block state: front matter (only when the document starts with
    ``---``), fenced code (state encodes the fence character and length) and ``:::`` blocks.
    Colours come in a light and a dark set; :meth:`set_dark` switches (default: follows the
    application palette).
    """

    def __init__(self, document: QTextDocument, *, dark: bool | None = None) -> None:
        super().__init__(document)
        self._dark = _is_dark_palette() if dark is None else dark
        self._formats: dict[str, QTextCharFormat] = {}
        self._build_formats()

    # -- formats -------------------------------------------------------------------------------
    def _build_formats(self) -> None:
        idx = 1 if self._dark else 0
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        fmts: dict[str, QTextCharFormat] = {}
        for name, pair in _COLORS.items():
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(pair[idx]))
            fmts[name] = fmt
        for name in (
            "heading",
            "fm_key",
            "fm_delim",
            "directive",
            "directive_unknown",
            "block_section",
            "list",
            "block_dash",
        ):
            fmts[name].setFontWeight(QFont.Weight.Bold)
        fmts["block_key"].setFontWeight(QFont.Weight.DemiBold)
        fmts["heading_marker"].setFontWeight(QFont.Weight.Bold)
        fmts["quote"].setFontItalic(True)
        fmts["fm_comment"].setFontItalic(True)
        fmts["link"].setFontUnderline(True)
        fmts["directive_unknown"].setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmts["directive_unknown"].setUnderlineColor(QColor(_COLORS["directive_unknown"][idx]))
        for name in ("code", "fence"):
            fmts[name].setFontFamilies([mono.family()])
            fmts[name].setFontFixedPitch(True)
        # A translucent neutral background reads on light and dark bases alike.
        fmts["code"].setBackground(QColor(127, 127, 127, 40))
        bold = QTextCharFormat()
        bold.setFontWeight(QFont.Weight.Bold)
        fmts["bold"] = bold
        italic = QTextCharFormat()
        italic.setFontItalic(True)
        fmts["italic"] = italic
        self._formats = fmts

    def format_for(self, name: str) -> QTextCharFormat:
        """The format used for ``name`` (e.g. ``"heading"``, ``"block_key"``), for tests/themes."""
        return QTextCharFormat(self._formats[name])

    def is_dark(self) -> bool:
        return self._dark

    def set_dark(self, dark: bool) -> None:
        if dark != self._dark:
            self._dark = dark
            self._build_formats()
            self.rehighlight()

    def _fmt(self, start: int, length: int, name: str) -> None:
        if length > 0:
            self.setFormat(start, length, self._formats[name])

    def _merge(self, start: int, length: int, name: str) -> None:
        """Add a format's properties on top of what a range already has."""
        extra = self._formats[name]
        for pos in range(start, start + length):
            fmt = self.format(pos)
            fmt.merge(extra)
            self.setFormat(pos, 1, fmt)

    # -- highlighting --------------------------------------------------------------------------
    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt override
        prev = self.previousBlockState()
        block_no = self.currentBlock().blockNumber()
        stripped = text.strip().lstrip("\ufeff")

        if block_no == 0 and stripped == "---":
            self._fmt(0, len(text), "fm_delim")
            self.setCurrentBlockState(FRONT_MATTER)
            return
        if prev == FRONT_MATTER:
            if stripped in ("---", "..."):
                self._fmt(0, len(text), "fm_delim")
                self.setCurrentBlockState(NORMAL)
            else:
                self._front_matter_line(text)
                self.setCurrentBlockState(FRONT_MATTER)
            return
        if prev >= FENCE_BACKTICK:
            self._fmt(0, len(text), "code")
            char = "`" if prev < FENCE_TILDE else "~"
            length = prev - (FENCE_BACKTICK if char == "`" else FENCE_TILDE)
            if stripped and set(stripped) == {char} and len(stripped) >= length:
                self._fmt(0, len(text), "fence")
                self.setCurrentBlockState(NORMAL)
            else:
                self.setCurrentBlockState(prev)
            return
        if prev in (DIRECTIVE, ADMONITION):
            if CLOSER.match(text):
                self._fmt(0, len(text), "directive")
                self.setCurrentBlockState(NORMAL)
                return
            if not OPENER.match(text):
                if prev == DIRECTIVE:
                    self._directive_line(text)
                else:
                    self._markdown_line(text)
                self.setCurrentBlockState(prev)
                return
        # Plain Markdown (or a new ::: opener).
        m_open = OPENER.match(text)
        if m_open:
            kind = directive_kind(m_open.group(2))
            self._fmt(0, m_open.start(2), "directive")
            self._fmt(
                m_open.start(2), len(m_open.group(2)), "directive" if kind else "directive_unknown"
            )
            self.setCurrentBlockState(ADMONITION if kind == "admonition" else DIRECTIVE)
            return
        if CLOSER.match(text):
            self._fmt(0, len(text), "directive")
            self.setCurrentBlockState(NORMAL)
            return
        m_fence = FENCE.match(text)
        if m_fence:
            fence = m_fence.group(1)
            self._fmt(0, len(text), "fence")
            base = FENCE_BACKTICK if fence[0] == "`" else FENCE_TILDE
            self.setCurrentBlockState(base + min(len(fence), 99))
            return
        self.setCurrentBlockState(NORMAL)
        self._markdown_line(text)

    def _front_matter_line(self, text: str) -> None:
        if text.lstrip().startswith("#"):
            self._fmt(0, len(text), "fm_comment")
            return
        m = _FM_KEY_RE.match(text)
        if not m:
            self._fmt(0, len(text), "fm_value")
            return
        self._fmt(m.start(2), len(m.group(2)), "fm_key")
        self._fmt(m.start(3), len(m.group(3)), "fm_delim")
        self._fmt(m.start(4), len(m.group(4)), "fm_value")

    def _directive_line(self, text: str) -> None:
        if _SECTION_RE.match(text):
            self._fmt(0, len(text), "block_section")
            return
        m_dash = _BLOCK_DASH_RE.match(text)
        if m_dash:
            self._fmt(m_dash.start(2), 1, "block_dash")
        m = _BLOCK_KEY_RE.match(text)
        value_start = 0
        if m:
            self._fmt(m.start(2), len(m.group(2)) + 1, "block_key")
            value_start = m.start(4)
        elif m_dash:
            value_start = m_dash.end(2)
        value = text[value_start:]
        for q in _QUOTED_RE.finditer(value):
            self._fmt(value_start + q.start(), q.end() - q.start(), "string")
        for b in _BOLD_RE.finditer(value):
            self._merge(value_start + b.start(), b.end() - b.start(), "bold")
        for idx, ch in enumerate(value):
            if ch == "|":
                self._fmt(value_start + idx, 1, "pipe")

    def _markdown_line(self, text: str) -> None:
        m_head = _HEADING_RE.match(text)
        if m_head:
            self._fmt(0, len(text), "heading")
            self._fmt(0, len(m_head.group(1)), "heading_marker")
        elif _HR_RE.match(text):
            self._fmt(0, len(text), "hr")
            return
        elif _QUOTE_RE.match(text):
            self._fmt(0, len(text), "quote")
        m_list = _LIST_RE.match(text)
        if m_list and not m_head:
            self._fmt(m_list.start(2), len(m_list.group(2)), "list")
        for m in _BOLD_RE.finditer(text):
            self._merge(m.start(), m.end() - m.start(), "bold")
        for m in _ITALIC_RE.finditer(text):
            self._merge(m.start(), m.end() - m.start(), "italic")
        for m in _HTML_RE.finditer(text):
            self._fmt(m.start(), m.end() - m.start(), "html")
        for m in _LINK_RE.finditer(text):
            self._fmt(m.start(1), len(m.group(1)), "link")
            self._fmt(m.start(2), len(m.group(2)), "url")
        for m in _IMAGE_RE.finditer(text):
            self._fmt(m.start(), m.end() - m.start(), "image")
            self._fmt(m.start(2), len(m.group(2)), "url")
        for m in _CODE_SPAN_RE.finditer(text):
            self._fmt(m.start(), m.end() - m.start(), "code")
