"""A name for an uploaded picture: the person's own file name, made safe and unique (Qt-free).

What the site serves correctly decides the rules. The real build takes a Hangul file name as it
is (``scripts/picture_oracle.py``: ``img/한글 그림.png`` was copied to
``assets/images/한글 그림-….png`` and shown), so Hangul is kept: staff recognise their pictures
by the names they gave them, and a romanised name would not read as theirs. What is changed:

* **One Unicode spelling (NFC).** macOS hands over file names decomposed (NFD: ᄒ+ᅡ+ᆫ), and
  the build compares bytes: a page typed on Windows (NFC) would name a file the build cannot
  find, so names are composed as the keyboard writes them.
* **Nothing that needs escaping or breaks a checkout.** Letters and digits of any script, ``-``
  and ``_`` stay; spaces and every other sign (``()[]#%?&+'"`` among them, which a Markdown
  address or a URL would need escaped, and ``<>:"/\\|?*``, which Windows refuses) become ``-``;
  no path separators, no ``..``, no leading or trailing dot or dash; lower case, so the same
  name in two cases never meets on a Windows or macOS checkout (both ignore case).
* **No name Windows reserves** (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM1``–``COM9``,
  ``LPT1``–``LPT9``, with any extension): ``con.png`` becomes ``con-picture.png``.
* **Short**: at most 60 characters before the extension (a checkout path stays well under
  Windows' 260).
* **The extension is the picture's real type**, lower case (``.JPG`` → ``.jpg``; a PNG named
  ``photo.jpg`` is stored as ``.png``).
* **Unique in its folder**, without regard to case: ``campus.png``, then ``campus-2.png``, …
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Iterable

MAX_STEM = 60
FALLBACK_STEM = "picture"
_RESERVED = frozenset(
    {"con", "prn", "aux", "nul"}
    | {f"com{n}" for n in range(1, 10)}
    | {f"lpt{n}" for n in range(1, 10)}
)
_DASHES = re.compile(r"-{2,}")


def _keep(ch: str) -> bool:
    return ch.isalnum() or ch in "-_"


def safe_stem(file_name: str) -> str:
    """The part before the extension of ``file_name`` (a path or a bare name, any OS) as the
    site keeps it: see the module."""
    base = re.split(r"[\\/]", file_name)[-1]
    base = unicodedata.normalize("NFC", base)
    stem, ext = posixpath.splitext(base)
    if not stem and ext:  # ".png": a name that is only an extension
        stem = ""
    cleaned = "".join(ch if _keep(ch) else "-" for ch in stem).lower()
    cleaned = _DASHES.sub("-", cleaned).strip("-_")
    cleaned = cleaned[:MAX_STEM].rstrip("-_")
    if not cleaned:
        cleaned = FALLBACK_STEM
    if cleaned in _RESERVED:
        cleaned = f"{cleaned}-{FALLBACK_STEM}"
    return cleaned


def safe_name(file_name: str, ext: str) -> str:
    """``file_name`` made safe, with the extension ``ext`` (the picture's real type)."""
    return f"{safe_stem(file_name)}.{ext.lower().lstrip('.')}"


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name-2``, ``name-3`` … before the extension: the first that no name in
    ``taken`` (the folder's file names) matches, case ignored."""
    used = {unicodedata.normalize("NFC", t).casefold() for t in taken}
    if name.casefold() not in used:
        return name
    stem, ext = posixpath.splitext(name)
    n = 2
    while f"{stem}-{n}{ext}".casefold() in used:
        n += 1
    return f"{stem}-{n}{ext}"


def next_name(name: str) -> str:
    """The name after ``name`` when that one turned out to be taken: ``a.png`` → ``a-2.png``,
    ``a-2.png`` → ``a-3.png``."""
    stem, ext = posixpath.splitext(name)
    m = re.fullmatch(r"(.*)-(\d+)", stem)
    if m and int(m.group(2)) >= 2:
        return f"{m.group(1)}-{int(m.group(2)) + 1}{ext}"
    return f"{stem}-2{ext}"
