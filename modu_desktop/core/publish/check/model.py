"""What a publish check finds, and the text edits that fix it (Qt-free)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    BREAKS_BUILD = "breaks-build"  # the site build fails: nothing is published until fixed
    PAGE_WRONG = "page-wrong"  # the site builds, but this page shows something else than meant
    MAY_SURPRISE = "may-surprise"  # the site reads it differently from how it looks; maybe meant


class StaleEdit(Exception):
    """The text changed since the check: the edit no longer applies where it was found."""


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``text[start:end]`` (which must still be ``original``) with ``replacement``.

    A fix changes the text the way a person would: it adds what is missing (a ``/``, a
    ``:::``, quotes, an escape that shows a ``<`` as typed) or takes out what the page never
    shows (a stray tag's markup, the braces around a word, a hidden note), so every letter the
    page shows is still there after it (a picture address may lose the site's own address in
    front, which the page never showed)."""

    start: int
    end: int
    replacement: str
    original: str

    def apply(self, text: str) -> str:
        if text[self.start : self.end] != self.original:
            raise StaleEdit(f"expected {self.original!r} at {self.start}")
        return text[: self.start] + self.replacement + text[self.end :]

    def to_json(self) -> dict[str, object]:
        return {
            "start": self.start,
            "end": self.end,
            "replacement": self.replacement,
            "original": self.original,
        }


@dataclass(frozen=True, slots=True)
class Finding:
    code: str  # stable identifier, e.g. "mdx-void-tag"
    severity: Severity
    offset: int  # index into the checked text (Python str index)
    end: int
    line: int  # 1-based
    column: int  # 1-based, in characters
    fields: Mapping[str, str] = field(default_factory=dict)
    fix: TextEdit | None = None

    @property
    def breaks_build(self) -> bool:
        return self.severity is Severity.BREAKS_BUILD

    @property
    def message(self) -> str:
        from .messages import sentence

        return sentence(self)

    @property
    def fix_label(self) -> str:
        from .messages import fix_label

        return fix_label(self)

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "breaksBuild": self.breaks_build,
            "line": self.line,
            "column": self.column,
            "offset": self.offset,
            "end": self.end,
            "message": self.message,
            "fields": dict(self.fields),
            "fix": self.fix.to_json() if self.fix else None,
        }


@dataclass(frozen=True, slots=True)
class CheckResult:
    findings: tuple[Finding, ...]

    @property
    def breaks_build(self) -> bool:
        return any(f.breaks_build for f in self.findings)

    @property
    def build_breakers(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.breaks_build)

    @property
    def fixable(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.fix is not None)

    def __bool__(self) -> bool:
        return bool(self.findings)


class LineIndex:
    """Offsets ↔ (line, column), 1-based."""

    def __init__(self, text: str) -> None:
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self.starts = starts

    def position(self, offset: int) -> tuple[int, int]:
        idx = bisect.bisect_right(self.starts, offset) - 1
        return idx + 1, offset - self.starts[idx] + 1


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """Apply non-overlapping edits (an edit overlapping an earlier-applied one is skipped)."""
    out = text
    last_start = len(text) + 1
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        if edit.end > last_start:
            continue
        out = edit.apply(out)
        last_start = edit.start
    return out
