"""The brochure preview, rendered as the site renders it (Qt-free; never imports PySide6).

* :mod:`.blocks` — the DOM of the site's 17 block components (18 directive names);
* :mod:`.mdx` — Markdown runs, the site's MDX components, Docusaurus admonitions;
* :mod:`.sanitize` — raw HTML in documents, cleaned by ``nh3``;
* :mod:`.images` — which images may be shown and how they are named;
* :mod:`.site_style` — the repository's own stylesheets, palettes and layouts (or ours);
* :mod:`.page` — keyed segments and the whole page.

:func:`render_preview` gives the whole static page of one document (no script).
"""

from __future__ import annotations

from modu_desktop.core.preview.images import (
    MISSING_IMAGE_PLACEHOLDER,
    REMOTE_IMAGE_PLACEHOLDER,
    ImageResolver,
    checkout_image_resolver,
    resolve_image,
)
from modu_desktop.core.preview.mdx import clear_markdown_cache
from modu_desktop.core.preview.page import (
    PAPER_MM,
    RenderedDoc,
    Segment,
    build_page,
    default_style,
    render_document,
)
from modu_desktop.core.preview.site_style import (
    SiteStyle,
    builtin_style,
    load_site_style,
    style_from_checkout,
    style_from_files,
)

__all__ = [
    "ImageResolver",
    "MISSING_IMAGE_PLACEHOLDER",
    "PAPER_MM",
    "REMOTE_IMAGE_PLACEHOLDER",
    "RenderedDoc",
    "Segment",
    "SiteStyle",
    "build_page",
    "builtin_style",
    "clear_render_cache",
    "default_style",
    "checkout_image_resolver",
    "load_site_style",
    "render_document",
    "render_preview",
    "resolve_image",
    "style_from_checkout",
    "style_from_files",
]


def clear_render_cache() -> None:
    """Forget cached Markdown fragments and block readings."""
    from modu_desktop.core.preview.markdown import block_body_text, first_heading
    from modu_desktop.core.preview.page import _site_block_html

    clear_markdown_cache()
    block_body_text.cache_clear()
    first_heading.cache_clear()
    _site_block_html.cache_clear()


def render_preview(
    markdown_text: str,
    *,
    theme: str | None = None,
    image_resolver: ImageResolver | None = None,
    style: SiteStyle | None = None,
    paper: str | None = None,
    no_motion: bool = False,
) -> str:
    """The whole static HTML page previewing ``markdown_text`` (no script in it).

    ``theme`` overrides the front matter's ``theme``; ``style`` is the site's look (default: our
    built-in stylesheet); ``image_resolver`` maps a local image reference to a ``file:`` or
    ``modu-img:`` URL or None (a placeholder is shown). Remote resources are never referenced
    by our markup; the site's stylesheets may name some, which the preview widget blocks.
    """
    doc = render_document(markdown_text, style=style, theme=theme, image_resolver=image_resolver)
    return build_page(doc, style, paper=paper, no_motion=no_motion)
