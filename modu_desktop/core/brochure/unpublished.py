"""Pages that are not published yet (Qt-free).

A new page, and a copy made with "새 문서로 저장", is saved with Docusaurus' ``draft: true`` in
its front matter: the site's production build leaves such a page out (no page, no menu entry),
so nothing half-written reaches the public site. 게시하기 removes that one line, and the next
build publishes the page. Every other byte of the text stays as it was.

    is_unpublished(text)   # True when the front matter says draft: true
    unpublished(text)      # the text with draft: true (added as the last front matter line)
    published(text)        # the text without its draft line

Docusaurus reads the front matter with js-yaml (YAML 1.2), so only ``true`` (and ``True``,
``TRUE``) is true; ``yes`` is the string "yes" — which the docs plugin's validation refuses.
"""

from __future__ import annotations

from modu_desktop.core.brochure import frontmatter

KEY = "draft"
_TRUE = ("true", "True", "TRUE")


def is_unpublished(text: str | frontmatter.FrontMatter) -> bool:
    fm = frontmatter.parse(text) if isinstance(text, str) else text
    value = fm.get(KEY)
    return value is not None and value.strip().strip("\"'") in _TRUE


def unpublished(text: str) -> str:
    """``text`` marked not published (unchanged if it already is)."""
    fm = frontmatter.parse(text)
    if is_unpublished(fm):
        return text
    fm.set(KEY, True)
    return fm.render()


def published(text: str) -> str:
    """``text`` without the line that keeps it off the site (unchanged if there is none)."""
    fm = frontmatter.parse(text)
    if not fm.remove(KEY):
        return text
    return fm.render()
