"""What a text card shows is what the site shows: every edit of the rich-text corpus is written
as Markdown by the card's writer, built by the real site (Docusaurus; needs Node and npm, skips
without them; the build is cached by ``tests/site_oracle.py``), and the page's body is compared
with the HTML the card's model stands for."""

from __future__ import annotations

from typing import Any

import pytest

from modu_desktop.core.pageedit.writing import to_markdown
from tests.helpers.htmlcompare import first_difference, normalise
from tests.helpers.nodetools import require_node
from tests.helpers.rich_corpus import EDITS, model_html
from tests.helpers.site_oracle import built_bodies

_MARKS = ("del", "em", "strong")


def _canonical(nodes: list[Any]) -> list[Any]:
    """What a reader sees the same way, written one way: white space at the start of a line
    (after ``<br>``) dropped, and nested marks (``<em><strong>``/``<strong><em>``) in one
    order."""
    out: list[Any] = []
    for node in nodes:
        if isinstance(node, str):
            if out and isinstance(out[-1], tuple) and out[-1][0] == "br":
                node = node.lstrip()
            if node:
                out.append(node)
            continue
        tag, attrs, children = node
        children = _canonical(children)
        chain = [tag]
        while (
            tag in _MARKS
            and len(children) == 1
            and isinstance(children[0], tuple)
            and children[0][0] in _MARKS
            and not children[0][1]
        ):
            chain.append(children[0][0])
            children = children[0][2]
        if len(chain) > 1:
            for name in sorted(chain)[::-1]:
                children = [(name, (), children)]
            out.append(children[0])
        else:
            out.append((tag, attrs, children))
    return out


def _site_nodes(body: str) -> list[Any]:
    """The page body's children without what Docusaurus adds around the Markdown: the content
    title's header, heading ids and their hash links."""
    nodes = normalise(body)
    if len(nodes) == 1 and isinstance(nodes[0], tuple):
        nodes = nodes[0][2]

    def clean(node: Any) -> Any:
        if isinstance(node, str):
            return node
        tag, attrs, children = node
        if tag in ("h2", "h3", "h4", "h5", "h6"):
            attrs = ()
            children = [
                c
                for c in children
                if not (isinstance(c, tuple) and c[0] == "a" and ("class", "hash-link") in c[1])
            ]
        return (tag, attrs, [clean(c) for c in children])

    return [clean(n) for n in nodes if not (isinstance(n, tuple) and n[0] == "header")]


@pytest.mark.timeout(1800)
def test_the_site_shows_what_the_card_showed() -> None:
    require_node()
    docs = {name: to_markdown(model).text + "\n" for name, model in EDITS.items()}
    site = built_bodies(docs)
    differ = {}
    for name, model in EDITS.items():
        body = site.get(name)
        if body is None:
            differ[name] = "the site did not build this page"
            continue
        ours, theirs = _canonical(normalise(model_html(model))), _canonical(_site_nodes(body))
        diff = first_difference(ours, theirs)
        if diff:
            differ[name] = f"{diff}\n    markdown: {docs[name]!r}"
    assert not differ, "\n".join(f"{n}: {d}" for n, d in differ.items())
