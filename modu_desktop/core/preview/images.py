"""Which images the preview may show, and how it names them (Qt-free).

Remote images are never referenced. A local reference (``/img/x.png``, ``img/x.png``,
``../static/img/x.png``, ``./images/a.png``) is shown only when the ``image_resolver`` maps it to
a local URL — a ``file:`` URL (tests, tools), a ``modu-img:`` URL (the preview widget's scheme
for repository pictures) — or it is an inline image ``data:`` URI.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

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


def directory_image_resolver(static_root: Path, *, base_url: str = "/") -> ImageResolver:
    """A resolver for a local copy of the site's ``static/`` folder (``file:`` URLs).

    Maps ``{base_url}img/uploads/x.png``, ``/img/x.png``, ``img/x.png`` and
    ``../static/img/x.png`` to existing files under ``static_root``; anything that would leave
    ``static_root`` or does not exist gives None.
    """
    root = static_root.resolve()
    prefixes = sorted({base_url if base_url.endswith("/") else base_url + "/", "/"}, key=len)

    def resolve(src: str) -> str | None:
        path = unquote(src.split("#", 1)[0].split("?", 1)[0].strip())
        if path.startswith("../static/"):
            rel = path[len("../static/") :]
        else:
            rel = path
            for prefix in reversed(prefixes):  # longest first
                if rel.startswith(prefix):
                    rel = rel[len(prefix) :]
                    break
            rel = rel[2:] if rel.startswith("./") else rel
        if not rel or rel.startswith("/"):
            return None
        candidate = (root / rel).resolve()
        if root not in candidate.parents or not candidate.is_file():
            return None
        return candidate.as_uri()

    return resolve
