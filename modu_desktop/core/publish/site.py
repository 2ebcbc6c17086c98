"""Where a saved document is published, and how far its publishing has got (Qt-free).

**The page address.** The site is Docusaurus with ``routeBasePath: '/docs'``, built by the
repository's workflow onto GitHub Pages (``https://OWNER.github.io/NAME/``, from
``docusaurus.config.js``). Docusaurus names a page by its front-matter ``slug`` if there is one,
else its ``id``, else its file name without the number prefix (``docs/01-intro.md`` →
``/docs/intro``); an ``index``/``README`` file names its folder. :func:`doc_slug` follows that.
The practice sandbox serves its own pages under ``/_sandbox/site/`` (see
``sandbox/site.py``).

**The publishing state** of one save lives in :mod:`modu_desktop.core.publish.deploy` (the one state
machine: it only moves forward, whatever order the runs API reports in).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlsplit

# Docusaurus' default number-prefix parser (docusaurus-plugin-content-docs numberPrefix.ts)
_NUMBER_PREFIX = re.compile(r"^(?P<num>\d+)\s*[-_.]+\s*(?P<rest>[^-_.\s].*)$")
_IGNORED_PREFIX = re.compile(r"^(\d{2,4}[-_.]\d{2}[-_.]\d{2}|\d+[-_.]\d+[-_.]\d+)")
_INDEX_NAMES = ("index", "readme")


def strip_number_prefix(name: str) -> str:
    """``01-intro`` → ``intro``; dates and versions (``2021-01-01``, ``1.2.3``) stay."""
    if _IGNORED_PREFIX.match(name):
        return name
    m = _NUMBER_PREFIX.match(name)
    return m.group("rest") if m else name


def doc_slug(path: str, front_matter: Mapping[str, Any] | None = None) -> str:
    """The page path under ``/docs/`` for a file under ``docs/`` (no leading slash)."""
    fm = front_matter or {}
    rel = path.strip("/")
    if rel.startswith("docs/"):
        rel = rel[len("docs/") :]
    folder, _, file_name = rel.rpartition("/")
    folder = "/".join(strip_number_prefix(p) for p in folder.split("/") if p)
    stem = file_name.rsplit(".", 1)[0] if "." in file_name else file_name
    slug_fm = str(fm.get("slug") or "").strip()
    if slug_fm.startswith("/"):
        return slug_fm.strip("/")
    if slug_fm:
        return posixpath.normpath(posixpath.join(folder, slug_fm)).strip("/").lstrip(".")
    doc_id = str(fm.get("id") or "").strip()
    if not doc_id and stem.lower() in _INDEX_NAMES:
        return folder
    base = doc_id or strip_number_prefix(stem)
    return f"{folder}/{base}" if folder else base


def site_base_url(api_url: str, owner: str, name: str) -> str | None:
    """The published site's root for a repository, or None when it cannot be known.

    github.com → ``https://OWNER.github.io/NAME/`` (the site's own ``url`` + ``baseUrl``);
    a sandbox on loopback → its practice site; GitHub Enterprise → None (Pages hosts vary)."""
    parts = urlsplit(api_url.rstrip("/"))
    host = (parts.hostname or "").lower()
    if host == "api.github.com":
        return f"https://{owner.lower()}.github.io/{name}/"
    if host in ("127.0.0.1", "localhost", "::1") and parts.scheme == "http":
        return f"{api_url.rstrip('/')}/_sandbox/site/"
    return None


def page_url(base_url: str, slug: str) -> str:
    """``base`` + ``docs/`` + the slug, each part percent-encoded (Hangul ids work)."""
    path = "/".join(quote(p, safe="") for p in slug.split("/") if p)
    return f"{base_url.rstrip('/')}/docs/{path}" if path else f"{base_url.rstrip('/')}/docs/"


def document_page_url(api_url: str, owner: str, name: str, path: str, text: str) -> str | None:
    """The published address of the document at ``path`` whose text is ``text`` (None when the
    page is not published: ``draft: true`` keeps it off the site, so it has no address)."""
    from modu_desktop.core.brochure.blocks import split_front_matter
    from modu_desktop.core.brochure.unpublished import is_unpublished

    base = site_base_url(api_url, owner, name)
    if base is None or is_unpublished(text):
        return None
    fm, _body = split_front_matter(text.replace("\r\n", "\n"))
    return page_url(base, doc_slug(path, fm.values))
