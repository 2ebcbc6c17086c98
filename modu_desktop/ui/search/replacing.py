"""모두 바꾸기… from the search results: the one place where the search hands over to the review
of a replacement across pages.

The review screen (page by page and place by place, each tickable, pages someone else holds or
that are open here unsaved left out and named, one commit for all) is
``ui/search/replace_review.py``, built beside this module. :func:`open_replace_review` is the
seam that connects it: until it is connected, the button changes nothing and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QMessageBox, QWidget

from modu_desktop.core.search.index import SearchIndex
from modu_desktop.core.search.model import SearchOptions, SearchResults
from modu_desktop.i18n import tr


@dataclass(frozen=True)
class ReplaceRequest:
    """What the person asked: replace ``query`` (found with ``options``) by ``replacement``
    where ``results`` found it; ``index`` gives each page's current text
    (``SearchIndex.page_texts``) for the plan (``core/search/replace.plan_replace``)."""

    query: str
    replacement: str
    options: SearchOptions
    results: SearchResults
    index: SearchIndex


def open_replace_review(parent: QWidget, request: ReplaceRequest) -> bool:
    """Open the review of ``request`` over ``parent``; True when a review screen opened.

    Connect the review screen here (``replace_review.review_and_replace``). Until then nothing
    is changed, and the person is told so in plain words."""
    box = QMessageBox(
        QMessageBox.Icon.Information,
        tr("Replace on every page"),
        tr(
            "Replacing on every page at once is not available in this version yet. Nothing "
            "was changed; open a page from the list to change the words there."
        ),
        QMessageBox.StandardButton.Ok,
        parent,
    )
    box.setObjectName("replaceReviewMissing")
    box.open()  # not exec(): the window keeps running its jobs
    return False
