"""Which images the preview may show, and how it names them (Qt-free).

Remote images are never referenced. A local reference (``/img/x.png``, ``img/x.png``,
``../static/img/x.png``, ``@site/…``: where the site build takes it from is
:mod:`modu_desktop.core.pictures.rule`'s rule) is shown only when the ``image_resolver``
maps it to a local URL — a ``file:`` URL (tests, tools), a ``modu-img:`` URL (the preview
widget's scheme for repository pictures) — or it is an inline image ``data:`` URI.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from modu_desktop.core.pictures.rule import repo_picture_path

ImageResolver = Callable[[str], "str | None"]

REMOTE_IMAGE_PLACEHOLDER = "외부 이미지는 미리보기에 표시하지 않습니다"
MISSING_IMAGE_PLACEHOLDER = "이미지를 찾을 수 없습니다"

_DATA_IMAGE_RE = re.compile(r"^data:image/(png|jpe?g|gif|webp|bmp);base64,[A-Za-z0-9+/=\s]+$", re.I)
_LOCAL_URL = ("file:", "modu-img:")


def is_remote(src: str) -> bool:
    low = re.sub(r"[\x00-\x20]+", "", src).lower()
    return low.startswith(("http:", "https:", "//", "ftp:", "ws:", "wss:"))


def resolve_image(src: str, resolver: ImageResolver | None) -> tuple[str | None, str]:
    """(safe URL or None, reason: "ok" | "remote" | "missing")."""
    src = src.strip()
    if not src:
        return None, "missing"
    if is_remote(src):
        return None, "remote"
    if _DATA_IMAGE_RE.match(src):
        return src, "ok"
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", src) and not re.match(r"^[a-zA-Z]:[\\/]", src):
        return None, "missing"  # javascript:, file:, data:text … never taken from the document
    if resolver is None:
        return None, "missing"
    try:
        url = resolver(src)
    except Exception:  # a broken resolver must not break the preview
        return None, "missing"
    if not url:
        return None, "missing"
    if url.startswith(_LOCAL_URL) or _DATA_IMAGE_RE.match(url):
        return url, "ok"
    return None, "missing"


def checkout_image_resolver(checkout: Path, doc_path: str) -> ImageResolver:
    """A resolver for a local copy of the site repository (``file:`` URLs): an address names
    the file the site build takes for the document at ``doc_path``
    (:func:`~modu_desktop.core.pictures.rule.locate_picture`); anything outside
    ``checkout`` or missing gives None."""
    root = checkout.resolve()

    def resolve(src: str) -> str | None:
        rel = repo_picture_path(src, doc_path)
        if rel is None:
            return None
        candidate = (root / rel).resolve()
        if root not in candidate.parents or not candidate.is_file():
            return None
        return candidate.as_uri()

    return resolve
