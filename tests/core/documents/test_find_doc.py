"""A document is found by its docId, path or front-matter id."""

from __future__ import annotations

from modu_desktop.core.documents.store import DocSummary, find_doc


def _d(doc_id: str, front: str | None) -> DocSummary:
    return DocSummary(doc_id, f"docs/{doc_id}.md", "sha", doc_id, front_id=front)


DOCS = [
    _d("01-welcome", "welcome"),
    _d("bootcamp/00-overview", "overview"),
    _d("03-strategy", "strategy"),
    _d("10-a", "same"),
    _d("11-b", "same"),
    _d("welcome-old", None),
]


def test_doc_id_path_and_front_matter_id() -> None:
    assert find_doc(DOCS, "01-welcome") is DOCS[0]
    assert find_doc(DOCS, "docs/01-welcome.md") is DOCS[0]
    assert find_doc(DOCS, "welcome") is DOCS[0]
    assert find_doc(DOCS, "bootcamp/overview") is DOCS[1]  # the site address of a folder's page
    assert find_doc(DOCS, "bootcamp/00-overview") is DOCS[1]


def test_unknown_and_ambiguous_names_find_nothing() -> None:
    assert find_doc(DOCS, "nope") is None
    assert find_doc(DOCS, "overview") is None  # in a folder the site id is bootcamp/overview
    assert find_doc(DOCS, "same") is None  # two files claim it: neither is guessed
    assert find_doc(DOCS, "") is None


def test_a_doc_id_wins_over_another_files_front_id() -> None:
    docs = [_d("02-x", "strategy"), _d("strategy", None)]
    assert find_doc(docs, "strategy") is docs[1]
