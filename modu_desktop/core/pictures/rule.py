"""Where a picture a document names is: one rule, the site build's (Qt-free).

A Markdown picture ``![alt](ADDRESS)`` is looked up by Docusaurus when the site is built
(``@docusaurus/mdx-loader``, ``transformImage``): a local address must name a file of the
repository, which the build copies into the site (``{baseUrl}assets/images/…``); when the file
does not exist the build stops (``onBrokenMarkdownImages: 'throw'``, the default). Which file an
address names:

* relative (``img/a.png``, ``./a.png``, ``../static/img/a.png``) — from the document's folder:
  ``img/a.png`` in ``docs/x.md`` is ``docs/img/a.png``, not ``static/img/a.png``;
* ``/…`` — from the static folder: ``/img/a.png`` is ``static/img/a.png``. The base URL is not
  taken off: with the published site's base URL ``/PNU-Modu/``, ``/PNU-Modu/img/a.png`` is
  ``static/PNU-Modu/img/a.png``;
* ``@site/…`` — from the repository root;
* the part after ``?`` or ``#`` is not part of the file name, and ``%xx`` escapes are decoded.

A picture the web admin uploads on a GitHub Pages project site is written with the site's base
URL in front (``/PNU-Modu/img/uploads/a.png``: the admin takes the base URL from the page's own
address), which the build looks up as ``static/PNU-Modu/img/uploads/a.png`` and stops.
:func:`base_url_dropped` gives the address that names the uploaded file (``/img/uploads/a.png``).

Other addresses are not looked up and stay in the page as written: ``pathname://…`` (written
without that prefix), and any address with a scheme or a host (``https:``, ``//host/…``,
``data:``, ``file:``); the reader's browser loads those.

``scripts/picture_oracle.py`` asks a real build about every form; the tests hold this module to
its answers. The upload, the preview and the publish check all locate pictures here.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

STATIC_DIR = "static"
DOCS_DIR = "docs"
SITE_PREFIX = "@site/"
PATHNAME_PREFIX = "pathname://"
# What the library and the preview's mirror take for a picture file (by name; the upload checks
# the bytes). BMP and ICO are shown but never uploaded.
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif", ".bmp", ".ico")

PictureKind = Literal["file", "left", "empty"]

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


@dataclass(frozen=True)
class Picture:
    """Where the build takes a picture from.

    ``kind``: ``"file"`` — the build needs the repository file ``path`` (None when the address
    leads out of the repository, so no file of it can satisfy the build); ``"left"`` — not
    looked up, the page keeps ``url``; ``"empty"`` — no address (the build stops).
    """

    kind: PictureKind
    path: str | None = None
    url: str | None = None

    @property
    def in_repository(self) -> bool:
        return self.kind == "file" and self.path is not None


def markdown_destination(raw: str) -> str:
    """A link destination as written in Markdown → the address the build reads: ``<…>``
    unwrapped, backslash escapes and character references decoded (as remark does)."""
    dest = raw.strip()
    if dest.startswith("<") and dest.endswith(">"):
        dest = dest[1:-1]
    return html.unescape(_MD_ESCAPE.sub(r"\1", dest))


def locate_picture(address: str, doc_path: str) -> Picture:
    """Where the site build takes the picture ``address`` (the Markdown destination, decoded:
    see :func:`markdown_destination`) named in the repository file ``doc_path`` from."""
    address = address.strip()
    if not address:
        return Picture("empty")
    if address.startswith("//") or _SCHEME.match(address):
        if address.lower().startswith(PATHNAME_PREFIX):
            return Picture("left", url=address[len(PATHNAME_PREFIX) :])
        return Picture("left", url=address)
    pathname = address.split("#", 1)[0].split("?", 1)[0]
    pathname = unquote(pathname)
    if pathname.startswith(SITE_PREFIX):
        rel = pathname[len(SITE_PREFIX) :]
    elif pathname.startswith("/"):
        rel = STATIC_DIR + pathname
    else:
        rel = posixpath.join(posixpath.dirname(doc_path), pathname)
    rel = posixpath.normpath(rel)
    if rel == "." or rel == ".." or rel.startswith("../") or rel.startswith("/"):
        return Picture("file", path=None)
    return Picture("file", path=rel)


def repo_picture_path(address: str, doc_path: str) -> str | None:
    """The repository file the build needs for ``address`` in ``doc_path``; None when it needs
    none (remote, ``data:``, ``pathname://``) or none can satisfy it."""
    return locate_picture(address, doc_path).path


def upload_address(repo_path: str) -> str:
    """The address to write in a document for a picture stored at ``repo_path`` under the static
    folder: ``static/img/uploads/a.png`` → ``/img/uploads/a.png`` (the build finds it there
    whatever the site's base URL, and writes the base URL into the page)."""
    prefix = STATIC_DIR + "/"
    if not repo_path.startswith(prefix):
        raise ValueError(f"not under {prefix}: {repo_path}")
    return "/" + repo_path[len(prefix) :]


def is_picture_file(path: str) -> bool:
    """A file the site keeps as a picture: a picture suffix under the static folder or beside
    the documents (``static/img/a.png``, ``docs/img/b.jpg``)."""
    if not path.lower().endswith(PICTURE_SUFFIXES):
        return False
    return path.startswith((STATIC_DIR + "/", DOCS_DIR + "/"))


def address_like(written: str, new_path: str, doc_path: str) -> str:
    """The address of the repository file ``new_path`` for the page ``doc_path``, written the
    way ``written`` (an address of the same page) was: ``/…`` stays static-rooted while the file
    is under the static folder, ``@site/…`` stays rooted at the repository, a relative address
    stays relative; the part after ``?`` or ``#`` is kept. A file outside the static folder
    named by a ``/…`` address becomes relative (no ``/…`` address reaches it)."""
    address = written.strip()
    tail = ""
    cut = min((i for i in (address.find("?"), address.find("#")) if i >= 0), default=-1)
    if cut >= 0:
        address, tail = address[:cut], address[cut:]
    if address.startswith(SITE_PREFIX):
        return SITE_PREFIX + new_path + tail
    if address.startswith("/") and new_path.startswith(STATIC_DIR + "/"):
        return upload_address(new_path) + tail
    rel = posixpath.relpath(new_path, posixpath.dirname(doc_path) or ".")
    if address.startswith("./") and not rel.startswith("../"):
        rel = "./" + rel
    return rel + tail


def address_for(path: str, doc_path: str) -> str:
    """The address a page at ``doc_path`` writes for the repository file ``path``: ``/img/a.png``
    for a file under the static folder, else relative to the page (``img/b.png``)."""
    if path.startswith(STATIC_DIR + "/"):
        return upload_address(path)
    return posixpath.relpath(path, posixpath.dirname(doc_path) or ".")


@dataclass(frozen=True)
class BaseUrlPicture:
    """A ``/…`` picture address with one folder too many in front, the site's base URL."""

    base: str  # "/PNU-Modu", as written
    address: str  # the address without it: "/img/uploads/a.png", query and hash kept


def base_url_dropped(
    address: str, doc_path: str, repo_paths: Collection[str]
) -> BaseUrlPicture | None:
    """``address`` (the Markdown destination as written, ``<…>`` unwrapped) without its first
    folder, when the build cannot find the picture as written but finds it without that folder:
    ``/PNU-Modu/img/uploads/a.png`` is ``static/PNU-Modu/img/uploads/a.png`` (missing), while
    ``/img/uploads/a.png`` is ``static/img/uploads/a.png`` (there). None otherwise."""
    written = address.strip()
    if not written.startswith("/") or written.startswith("//"):
        return None
    as_written = locate_picture(markdown_destination(written), doc_path)
    if as_written.kind != "file" or as_written.path in repo_paths:
        return None
    cut = written.find("/", 1)
    if cut <= 1:
        return None
    base, rest = written[:cut], written[cut:]
    if "?" in base or "#" in base:
        return None
    meant = locate_picture(markdown_destination(rest), doc_path)
    if meant.kind != "file" or meant.path is None or meant.path not in repo_paths:
        return None
    return BaseUrlPicture(base, rest)
