"""The practice site: ``GET /_sandbox/site/docs/{slug}`` shows a document of the practice
repository as a web page, so "사이트에서 보기" works in practice mode too.

Like GitHub Pages after a deploy, it shows the branch as of the last *successful* run of the
fake deploy workflow (or the branch head when no run has finished yet, e.g. a fresh sandbox).
The page is the app's own preview rendering (``core.preview``), not the Docusaurus build.
Like the site's production build, it leaves out a page whose front matter says ``draft:
true`` (not published): its address answers 404 until the page is published.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from modu_desktop.core.brochure.blocks import split_front_matter
from modu_desktop.core.brochure.unpublished import is_unpublished
from modu_desktop.core.publish.site import doc_slug

PREFIX = "/_sandbox/site/docs/"


def page(sandbox: Any, path: str) -> tuple[int, bytes]:
    """(status, HTML) for a request path under :data:`PREFIX`."""
    from modu_desktop.core.preview import render_preview

    slug = unquote(path[len(PREFIX) :]).strip("/")
    with sandbox.api.lock:
        store = sandbox.store
        commit = _published_commit(sandbox) or store.resolve_commit(sandbox.branch)
        if commit is None:
            return 404, b"<h1>404</h1>"
        tree = store.tree_sha_for(commit)
        entries = list(store.walk_tree(tree, True)) if tree else []
        for e in entries:
            if not (e.path.startswith("docs/") and e.path.endswith((".md", ".mdx"))):
                continue
            raw = store.read_file(commit, e.path) or b""
            text = raw.decode("utf-8", "replace").replace("\r\n", "\n")
            fm, _body = split_front_matter(text)
            if doc_slug(e.path, fm.values) == slug and not is_unpublished(text):
                html = render_preview(text, theme=fm.values.get("theme") or None)
                return 200, html.encode("utf-8")
    return 404, "<h1>404 — 페이지가 없습니다</h1>".encode()


def _published_commit(sandbox: Any) -> str | None:
    for run in sandbox.workflow.runs():  # newest first
        state = sandbox.workflow.state(run)
        if getattr(state, "status", None) == "completed" and (
            getattr(state, "conclusion", None) == "success"
        ):
            return str(run.head_sha)
    return None
