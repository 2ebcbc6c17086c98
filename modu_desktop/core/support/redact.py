"""Take secrets and personal paths out of text before it leaves the app (a log line, a report).

What goes: GitHub tokens by their documented prefixes (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``,
``ghr_``, ``github_pat_``), the value of any ``Authorization`` header or ``Bearer``/``token``
credential, every secret the caller names (the token in use, whatever its shape), and the user's
home folder (written ``~``) in its native, forward-slash and case-folded spellings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

HIDDEN = "***"

_TOKEN = re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,})\b")
_AUTH_HEADER = re.compile(r"(?i)(authorization\s*[:=]\s*[\"']?)(?:(?:bearer|token|basic)\s+)?\S+")
_CREDENTIAL = re.compile(r"(?i)\b(bearer|token)(\s+)[A-Za-z0-9_\-.=]{12,}")
_URL_PASSWORD = re.compile(r"(?i)(https?://[^/\s:@]+:)[^@\s/]+(@)")


def home_spellings(home: str | Path | None = None) -> list[str]:
    """The ways the home folder shows up in a log: as given, with either slash, longest first."""
    base = str(home if home is not None else Path.home())
    if len(base) < 2:
        return []
    forms = {base, base.replace("\\", "/"), base.replace("/", "\\")}
    real = os.path.realpath(base)
    forms |= {real, real.replace("\\", "/")}
    return sorted((f for f in forms if len(f) > 1), key=len, reverse=True)


def redact(text: str, *, secrets: Iterable[str] = (), home: str | Path | None = None) -> str:
    """``text`` without tokens, credentials, the named ``secrets`` and the home folder."""
    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, HIDDEN)
    text = _TOKEN.sub(HIDDEN, text)
    text = _AUTH_HEADER.sub(lambda m: m.group(1) + HIDDEN, text)
    text = _CREDENTIAL.sub(lambda m: m.group(1) + m.group(2) + HIDDEN, text)
    text = _URL_PASSWORD.sub(lambda m: m.group(1) + HIDDEN + m.group(2), text)
    for form in home_spellings(home):
        text = _replace_folded(text, form, "~")
    return text


def _replace_folded(text: str, needle: str, replacement: str) -> str:
    """Replace ``needle`` ignoring case (Windows paths are case-insensitive), as a path prefix."""
    pattern = re.compile(re.escape(needle) + r"(?=[\\/\s\"':,;)\]]|$)", re.IGNORECASE)
    return pattern.sub(replacement, text)
