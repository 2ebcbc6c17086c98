"""모두 바꾸기… from the search results: the one place where the search hands over to the review
of a replacement across pages (``replace_review.py``: page by page and place by place, each
tickable, pages someone else holds or that are open here unsaved left out and named, then one
commit for all).

The review needs the signed-in workspace and the window's open page (``OpenPages``), which
only the window has: the window gives :class:`SearchMode` a ``review`` made with
:func:`open_replace_review`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QWidget

from modu_desktop.core.changes.outcome import ChangeOutcome
from modu_desktop.core.search.index import SearchIndex
from modu_desktop.core.search.model import SearchOptions, SearchResults
from modu_desktop.core.workspace import Workspace
from modu_desktop.ui.search.replace_review import OpenPages, review_and_replace


@dataclass(frozen=True)
class ReplaceRequest:
    """What the person asked: replace ``query`` (found with ``options``) by ``replacement``
    where ``results`` found it; ``index`` gives each page's current text for the plan."""

    query: str
    replacement: str
    options: SearchOptions
    results: SearchResults
    index: SearchIndex


async def open_replace_review(
    parent: QWidget, request: ReplaceRequest, workspace: Workspace, open_pages: OpenPages
) -> ChangeOutcome | None:
    """The review of ``request`` over ``parent``, until it is closed: what became of the
    change, None when nothing was sent. A change that landed comes back through the window's
    open pages (the list is read again, and the search follows it)."""
    return await review_and_replace(
        workspace,
        request.index,
        request.query,
        request.replacement,
        request.options,
        parent,
        open_pages=open_pages,
    )
