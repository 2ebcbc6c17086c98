"""Compatibility name: the renderer lives in :mod:`modu_desktop.core.preview`."""

from __future__ import annotations

from modu_desktop.core.preview import (
    MISSING_IMAGE_PLACEHOLDER,
    REMOTE_IMAGE_PLACEHOLDER,
    ImageResolver,
    checkout_image_resolver,
    clear_render_cache,
    render_preview,
    resolve_image,
)

__all__ = [
    "ImageResolver",
    "MISSING_IMAGE_PLACEHOLDER",
    "REMOTE_IMAGE_PLACEHOLDER",
    "clear_render_cache",
    "checkout_image_resolver",
    "render_preview",
    "resolve_image",
]
