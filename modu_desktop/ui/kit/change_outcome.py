"""What became of a change of many pages (a replacement across pages, a picture's rename or
shrink, the undo of one), told the same way wherever it is told: its headline, one line per
page left out, and one colour rule —

- **ok** (green): every page changed, or every page waits together in the save queue;
- **warning** (amber): it landed, but some pages were left out (someone else edits them, they
  changed meanwhile …); those are named, and the rest is saved, so it is not a failure;
- **error** (red): nothing changed.

    text, kind = outcome_report(outcome, workspace.server_now())
    dialog.show_status(text, kind)
"""

from __future__ import annotations

from modu_desktop.core.changes import words
from modu_desktop.core.changes.outcome import ChangeOutcome, ChangeState

__all__ = ["landed", "outcome_kind", "outcome_report"]


def landed(outcome: ChangeOutcome) -> bool:
    """Whether the change went through: committed, or waiting in the save queue as one."""
    return outcome.state in (ChangeState.COMMITTED, ChangeState.QUEUED)


def outcome_kind(outcome: ChangeOutcome) -> str:
    """ "ok", "warning" or "error" (see the module docstring)."""
    if not landed(outcome):
        return "error"
    return "ok" if outcome.complete else "warning"


def outcome_report(outcome: ChangeOutcome, now: float) -> tuple[str, str]:
    """The outcome's sentences (the headline, then "• " and each page left out, with who and
    since when as of ``now``, server seconds) and :func:`outcome_kind`."""
    lines = [words.headline(outcome)()]
    lines += [f"• {words.left_out(note, now)()}" for note in outcome.left_out]
    return "\n".join(lines), outcome_kind(outcome)
