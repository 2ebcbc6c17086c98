"""Wording a text in a chosen language in a test (the autouse fixture speaks English)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from modu_desktop import i18n

T = TypeVar("T")


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """``i18n``'s language is ``lang`` inside the block, and what it was after."""
    before = i18n.language()
    i18n.set_language(lang)
    try:
        yield
    finally:
        i18n.set_language(before)


def in_lang(lang: str, make: Callable[[], T]) -> T:
    """``make()`` with ``i18n`` speaking ``lang``: ``in_lang("ko", err.user_message)``."""
    with speaking(lang):
        return make()
