"""Picture uploads (Qt-free): check, name, upload, and the Markdown to insert.

Wire contract: ``static/img/uploads/{name}``, commit message ``upload(image): add {name} via
Admin Studio``, Markdown ``![alt](/img/uploads/{name})``: the address the site build finds the
file at whatever the site's base URL
(:func:`~modu_desktop.core.pictures.rule.upload_address`). The web admin writes
``{baseUrl}img/uploads/{name}`` instead, which stops the build of a site whose base URL is not
``/`` (the publish check says so). The web admin names its uploads ``upload_{epoch-ms}``; ours
keep the person's own file name, made safe and unique in the folder
(:mod:`~modu_desktop.core.pictures.names`): the admin and the site read any name.

A picture whose bytes are already on the site (its git blob sha is a picture's tree entry sha)
is not uploaded again: the result names that picture (``reused``) and its Markdown, so the
person is offered the picture that is there.

Checks before anything is sent:

* **Type by content, not by name.** PNG, JPEG, GIF and WebP by their magic bytes; SVG by being
  UTF-8 XML whose root element is ``<svg>`` (SVG namespace or none). The extension written is
  the detected type's (a PNG called ``photo.jpg`` is stored as ``.png``), keeping ``.jpeg`` when
  the file was called that. A Windows program, a ZIP/Office file, a PDF, HEIC... get a message
  naming what they are.
* **SVG safety.** The site serves uploads from its own origin, so an SVG with a script runs as
  the site when someone opens the picture's address. Refused: ``<script>``, ``<foreignObject>``,
  ``on…=`` event attributes, ``javascript:`` / ``data:text/html`` links, DOCTYPE/ENTITY
  declarations (entity expansion bombs), and external ``href``s to http(s) (tracking, mixed
  content; the preview shows no remote resources anyway).
* **Size.** At most 10 MB (``MAX_BYTES``). GitHub's contents API would take up to ~100 MB (as
  base64 JSON, so a 10 MB picture is already a 13.4 MB request), and GitHub warns about files
  over 50 MB, but every byte is downloaded by each visitor of a brochure page, often on a phone:
  10 MB allows a straight-from-camera JPEG (typically 3–8 MB) while refusing raw scans and
  videos-as-GIF. Above 2 MB (``WARN_BYTES``) the result carries a "consider resizing" note.
  An empty file is refused.
* **Larger than the site needs.** The widest page layout is 1,860 px, so a photo longer than
  2,000 px (``SITE_LONGEST_PX``) or heavier than 1 MB (``SITE_BYTES``) only costs visitors
  time: :func:`larger_than_needed` says so, and the app offers a smaller copy before uploading
  (the original stays possible up to ``MAX_BYTES``).
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github.errors import GitHubConflict, GitHubError, WriteUncertain
from modu_desktop.core.pictures.names import next_name, safe_name, unique_name
from modu_desktop.core.pictures.rule import address_for, upload_address
from modu_desktop.core.text import Text

__all__ = [
    "MAX_BYTES",
    "SITE_BYTES",
    "SITE_LONGEST_PX",
    "UPLOAD_DIR",
    "WARN_BYTES",
    "ImageCheck",
    "ImageUpload",
    "check_image",
    "image_markdown",
    "picture_markdown",
    "same_picture",
    "larger_than_needed",
    "size_text",
    "upload_image",
    "upload_message",
]

MAX_BYTES = 10 * 1024 * 1024
WARN_BYTES = 2 * 1024 * 1024
SITE_LONGEST_PX = 2000
SITE_BYTES = 1024 * 1024
SHRINKABLE_KINDS = ("jpeg", "png", "webp")  # photos; a GIF may be animated, an SVG has no pixels
UPLOAD_DIR = "static/img/uploads"

_SVG_NS = "http://www.w3.org/2000/svg"
_EXT_OF = {"png": "png", "jpeg": "jpg", "gif": "gif", "webp": "webp", "svg": "svg"}


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def size_text(n: int) -> str:
    """A file size as people read it: "3.6 MB", "820 KB"."""
    if n >= 1024 * 1024:
        return _mb(n)
    return f"{max(1, round(n / 1024))} KB"


def larger_than_needed(kind: str | None, size: int, width: int, height: int) -> bool:
    """A photo the site would show smaller anyway, or that weighs more than a page should."""
    if kind not in SHRINKABLE_KINDS:
        return False
    return size > SITE_BYTES or max(width, height) > SITE_LONGEST_PX


@dataclass(frozen=True)
class ImageCheck:
    """The verdict on a picture. ``kind``: png/jpeg/gif/webp/svg when ok."""

    ok: bool
    text: Text
    kind: str | None = None
    ext: str | None = None
    size: int = 0
    warning: Text | None = None

    @property
    def message(self) -> str:
        return self.text.en

    def user_message(self) -> str:
        """The sentence in the current language."""
        return self.text()


def _sniff_other(data: bytes) -> str | None:
    """Name well-known non-pictures for a clear refusal (their Korean is in the catalogue)."""
    head = data[:16]
    if head.startswith(b"MZ"):
        return "a Windows program (.exe/.dll)"
    if head.startswith(b"\x7fELF") or head[:4] in (b"\xcf\xfa\xed\xfe", b"\xfe\xed\xfa\xcf"):
        return "a program"
    if head.startswith(b"PK\x03\x04"):
        return "a ZIP archive (or an Office document)"
    if head.startswith(b"%PDF"):
        return "a PDF document"
    if data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftyphevc"):
        return "a HEIC photo (iPhone format; export it as JPEG first)"
    if data[4:8] == b"ftyp":
        return "a video"
    if head.startswith(b"BM"):
        return "a BMP picture (save it as PNG first)"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "a TIFF picture (save it as PNG or JPEG first)"
    return None


def _sniff_raster(data: bytes) -> str | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


_SVG_BAD = [  # (pattern, what it is: its Korean is in resources/translations/ko/images.json)
    (re.compile(b"<!DOCTYPE|<!ENTITY", re.I), "a DOCTYPE/ENTITY declaration"),
    (re.compile(b"<\\s*(?:[\\w-]+:)?script\\b", re.I), "a script"),
    (re.compile(b"<\\s*(?:[\\w-]+:)?foreignObject\\b", re.I), "embedded HTML (foreignObject)"),
    (re.compile(b"\\son[a-z]+\\s*=", re.I), "an event handler (on…=)"),
    (re.compile(b"javascript\\s*:", re.I), "a javascript: link"),
    (re.compile(b"data\\s*:\\s*text/html", re.I), "an embedded HTML page"),
    (re.compile(b"href\\s*=\\s*[\\\"']\\s*(?:https?:)?//", re.I), "a link to another site"),
]


def _check_svg(data: bytes) -> tuple[bool, Text | None]:
    """(is_svg, refusal). Not SVG-looking at all → (False, None)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False, None
    stripped = text.lstrip()
    if not (
        stripped.startswith("<?xml")
        or stripped.startswith("<svg")
        or stripped.startswith("<!--")
        or stripped.startswith("<!DOCTYPE svg")
    ):
        return False, None
    if "<svg" not in text:
        return False, None
    for pattern, en in _SVG_BAD:
        if pattern.search(data):
            return True, Text(
                "This SVG contains {what}, which could run on the site; it is not "
                "uploaded. Export it as PNG, or remove that part.",
                what=Text(en),
            )
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        return True, Text("This SVG is not well-formed XML ({exc}).", exc=exc)
    if root.tag not in ("svg", f"{{{_SVG_NS}}}svg"):
        return True, Text("This XML file is not an SVG picture (its root element is not <svg>).")
    return True, None


def check_image(
    data: bytes, name: str = "", *, max_bytes: int = MAX_BYTES, total_size: int | None = None
) -> ImageCheck:
    """Is ``data`` a picture we upload? Never raises. ``total_size``: the file's size when
    ``data`` is only its beginning (enough to name the type and refuse an oversize file)."""
    size = len(data) if total_size is None else total_size
    shown = posixpath.basename(name.replace("\\", "/")) or "This file"
    if size == 0:
        return ImageCheck(False, Text("{shown} is empty.", shown=shown))
    kind = _sniff_raster(data)
    refusal: Text | None = None
    if kind is None:
        is_svg, refusal = _check_svg(data[: max_bytes + 1])
        if is_svg:
            kind = "svg"
    if kind is None:
        other = _sniff_other(data)
        supported = "PNG, JPEG, GIF, WebP, SVG"
        if other is not None:
            return ImageCheck(
                False,
                Text(
                    "{shown} is {v}, not a picture. Pictures can be {supported}.",
                    shown=shown,
                    v=Text(other),
                    supported=supported,
                ),
                size=size,
            )
        return ImageCheck(
            False,
            Text(
                "{shown} is not a supported picture ({supported}).",
                shown=shown,
                supported=supported,
            ),
            size=size,
        )
    if size > max_bytes:
        return ImageCheck(
            False,
            Text(
                "{shown} is {v}; pictures can be at most {v2} so the site stays "
                "fast. Make it smaller (e.g. 2000 px wide, JPEG quality 80) and "
                "try again.",
                shown=shown,
                v=_mb(size),
                v2=_mb(max_bytes),
            ),
            kind=kind,
            size=size,
        )
    if refusal is not None:
        return ImageCheck(False, refusal, kind=kind, size=size)
    ext = _EXT_OF[kind]
    own_ext = posixpath.splitext(shown)[1].lower().lstrip(".")
    if kind == "jpeg" and own_ext in ("jpg", "jpeg"):
        ext = own_ext
    warning = None
    if size > WARN_BYTES:
        warning = Text(
            "{shown} is {v}; a smaller picture loads faster for visitors.", shown=shown, v=_mb(size)
        )
    return ImageCheck(
        True,
        Text("{shown} is a {v} picture ({v2}).", shown=shown, v=kind.upper(), v2=_mb(size)),
        kind=kind,
        ext=ext,
        size=size,
        warning=warning,
    )


def upload_message(name: str) -> str:
    return f"upload(image): add {name} via Admin Studio"


_ALT_BAD = re.compile(r"[\[\]\r\n\\]+")


def image_markdown(name: str, alt: str = "") -> str:
    """The Markdown of a picture uploaded as ``name``."""
    return picture_markdown(f"{UPLOAD_DIR}/{name}", alt)


def picture_markdown(path: str, alt: str = "", doc_path: str = "docs/page.md") -> str:
    """The Markdown that shows the repository picture ``path`` on the page ``doc_path``."""
    alt = " ".join(_ALT_BAD.sub(" ", alt).split())
    address = address_for(path, doc_path)
    if any(ch in address for ch in " ()<>"):
        address = "<" + address.replace("<", "%3C").replace(">", "%3E") + ">"
    return f"![{alt}]({address})"


def default_alt(file_name: str) -> str:
    """A readable alt text from a file name: ``campus_photo-01.jpg`` → ``campus photo 01``."""
    base = unicodedata.normalize("NFC", re.split(r"[\\/]", file_name)[-1])
    stem = posixpath.splitext(base)[0]
    return re.sub(r"[_\-.]+", " ", stem).strip()


class RepoFile(Protocol):
    """A file of the repository's listing (a tree entry)."""

    @property
    def path(self) -> str: ...

    @property
    def sha(self) -> str: ...


def same_picture(data: bytes, files: Iterable[RepoFile]) -> RepoFile | None:
    """The file of ``files`` whose bytes are ``data`` (same git blob sha), or None."""
    sha = git_blob_sha(data)
    for f in files:
        if f.sha == sha:
            return f
    return None


def names_in(folder: str, files: Iterable[RepoFile]) -> list[str]:
    """The file names directly in ``folder``."""
    prefix = folder.rstrip("/") + "/"
    return [f.path[len(prefix) :] for f in files if f.path.startswith(prefix)]


@dataclass(frozen=True)
class ImageUpload:
    """The outcome of an upload. On success ``markdown`` is what to insert at the cursor."""

    ok: bool
    text: Text
    check: ImageCheck | None = None
    path: str | None = None  # static/img/uploads/campus.png
    name: str | None = None  # campus.png
    markdown: str | None = None
    site_url: str | None = None  # /img/uploads/{name}, the address in the document
    commit_sha: str | None = None
    error: BaseException | None = None
    uncertain: bool = False
    reused: bool = False  # the same picture was on the site already: nothing was uploaded

    @property
    def message(self) -> str:
        return self.text.en

    def user_message(self) -> str:
        """The sentence in the current language."""
        return self.text()


async def upload_image(
    client: Any,
    data: bytes,
    file_name: str = "",
    *,
    alt: str | None = None,
    existing: Iterable[RepoFile] = (),
    max_bytes: int = MAX_BYTES,
    branch: str | None = None,
    doc_path: str = "docs/page.md",
) -> ImageUpload:
    """Check and upload one picture; never raises for expected failures.

    ``client`` is a ``GitHubClient`` (``put_file``). ``existing``: the repository's files as
    last listed — a picture with the same bytes is offered instead of a new upload
    (``reused``), and the new name avoids the names in the upload folder; a name taken since is
    told by GitHub, and the next one (``name-2``…) is tried, a few times. Nothing is sent for a
    refused picture."""
    check = check_image(data, file_name, max_bytes=max_bytes)
    if not check.ok:
        return ImageUpload(False, check.text, check)
    assert check.ext is not None
    alt_text = default_alt(file_name) if alt is None else alt
    files = list(existing)
    same = same_picture(data, files)
    if same is not None:
        return _reused(same, check, alt_text, doc_path)
    name = unique_name(safe_name(file_name, check.ext), names_in(UPLOAD_DIR, files))
    return await _send_new(client, data, name, check, alt_text, branch)


def _reused(same: RepoFile, check: ImageCheck, alt_text: str, doc_path: str) -> ImageUpload:
    """The picture with the same bytes already on the site, offered instead of an upload."""
    name = posixpath.basename(same.path)
    return ImageUpload(
        True,
        Text("The same picture is already on the site as {name}; it is used again.", name=name),
        check,
        same.path,
        name,
        picture_markdown(same.path, alt_text, doc_path),
        address_for(same.path, doc_path),
        reused=True,
    )


async def _send_new(
    client: Any, data: bytes, name: str, check: ImageCheck, alt_text: str, branch: str | None
) -> ImageUpload:
    """Create the file under a free name; a name taken since the listing moves to the next."""
    last: BaseException | None = None
    for _attempt in range(5):
        path = f"{UPLOAD_DIR}/{name}"
        try:
            kwargs: dict[str, Any] = {"sha": None}
            if branch:
                kwargs["branch"] = branch
            res = await client.put_file(path, data, upload_message(name), **kwargs)
        except GitHubConflict as exc:  # that name was taken since the listing: the next one
            last = exc
            name = next_name(name)
            continue
        except WriteUncertain as exc:
            return ImageUpload(
                False,
                Text(
                    "Could not confirm whether the picture was uploaded as {name}; "
                    "check the connection and try again (a second copy does no harm).",
                    name=name,
                ),
                check,
                path,
                name,
                error=exc,
                uncertain=True,
            )
        except GitHubError as exc:
            return ImageUpload(
                False,
                Text("The picture was not uploaded: {error}", error=exc),
                check,
                error=exc,
            )
        warn: Text | str = Text(" {warning}", warning=check.warning) if check.warning else ""
        return ImageUpload(
            True,
            Text("Uploaded {name}.{warn}", name=name, warn=warn),
            check,
            path,
            name,
            image_markdown(name, alt_text),
            upload_address(path),
            getattr(res, "commit_sha", None),
        )
    return ImageUpload(
        False,
        Text("The picture was not uploaded: the file names were taken; try again."),
        check,
        error=last,
    )


async def upload_image_file(client: Any, path: str | Path, **kw: Any) -> ImageUpload:
    """``upload_image`` for a file on disk (read errors become a refusal). A file over the limit
    is judged by its first bytes only (never read whole into memory)."""
    p = Path(path)
    max_bytes = int(kw.get("max_bytes", MAX_BYTES))
    try:
        size = p.stat().st_size
        if size > max_bytes:
            with p.open("rb") as fh:
                head = fh.read(4096)
            check = check_image(head, p.name, max_bytes=max_bytes, total_size=size)
            return ImageUpload(False, check.text, check)
        data = p.read_bytes()
    except OSError as exc:
        return ImageUpload(
            False,
            Text("Could not read {name}: {v}.", name=p.name, v=exc.strerror or exc),
            error=exc,
        )
    return await upload_image(client, data, p.name, **kw)
