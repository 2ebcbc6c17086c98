"""Our preview against the real site build, on the Markdown corpus (needs Node and npm).

    uv run python scripts/markdown_differential.py [--show NAME] [--all]

Every document of ``tests/fixtures/markdown-corpus`` is built once by the real site
(Docusaurus, through ``tests/helpers/site_oracle.py``; cached) and rendered by the preview; both
bodies are normalised (``tests/helpers/htmlcompare.py`` lists each normalisation) and compared
element by element and text by text. Prints the figure and the first difference of each
document that differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from modu_desktop.core.preview import render_document  # noqa: E402
from tests.helpers.htmlcompare import first_difference, normalise, render  # noqa: E402
from tests.helpers.site_oracle import built_bodies, corpus, with_front_matter  # noqa: E402

SITE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "pnu-modu-site"


def site_pictures(src: str) -> str | None:
    """Pictures of the site fixture: ``/…`` from ``static/``, others beside the documents."""
    path = src.split("?", 1)[0]
    base = SITE / "static" if path.startswith("/") else SITE / "docs"
    found = (base / path.lstrip("/")).resolve()
    return found.as_uri() if found.is_file() and SITE in found.parents else None


# Documents whose difference is known and explained (name → the site feature and why).
EXCEPTIONS: dict[str, str] = {}


def compare() -> dict[str, str | None]:
    """name → None when the preview reads the document as the site does, else the first
    difference."""
    docs = corpus()
    site = built_bodies(docs)
    out: dict[str, str | None] = {}
    for name, body in docs.items():
        built = site.get(name)
        if built is None:
            out[name] = "the site did not build this page"
            continue
        ours = render_document(
            with_front_matter(name, body), image_resolver=site_pictures
        ).content_html()
        theirs_nodes = normalise(built)
        # the site's body is the theme-doc-markdown element itself: compare its children
        if len(theirs_nodes) == 1 and isinstance(theirs_nodes[0], tuple):
            theirs_nodes = theirs_nodes[0][2]
        out[name] = first_difference(normalise(ours), theirs_nodes)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--show", help="print both normalised trees of one document")
    args = parser.parse_args()
    if args.show:
        docs = corpus()
        site = built_bodies(docs)
        body = docs[args.show]
        print(body, "\n---- preview")
        print(
            render(
                normalise(
                    render_document(
                        with_front_matter(args.show, body), image_resolver=site_pictures
                    ).content_html()
                )
            )
        )
        print("---- site")
        print(render(normalise(site[args.show] or "")[0][2]))
        return 0
    result = compare()
    same = [n for n, diff in result.items() if diff is None]
    for name, diff in result.items():
        if diff is not None:
            note = f"  [exception: {EXCEPTIONS[name]}]" if name in EXCEPTIONS else ""
            print(f"DIFF {name}: {diff}{note}")
    print(f"{len(result)} documents, {len(same)} identical")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
