"""One user-facing sentence as a code and its fields (Qt-free), worded in the user's language
through modu_desktop.i18n."""

from __future__ import annotations

from collections.abc import Mapping


class Text:
    """One user-facing sentence as a code and its fields: ``source`` is the English text with
    ``{field}`` places, which is also the key of its Korean in the catalogues
    (``resources/translations/ko/*.json``); :meth:`__call__` words it through
    ``modu_desktop.i18n`` (in the current language, or the one named). A field that is itself a
    ``Text``, or an error with ``user_text()``, is worded in the same language."""

    __slots__ = ("fields", "source")

    def __init__(self, source: str, /, **fields: object) -> None:
        self.source = source
        self.fields: Mapping[str, object] = fields

    def __call__(self, lang: str | None = None) -> str:
        from modu_desktop.i18n import language, tr_in

        lang = language() if lang is None else lang

        def worded(value: object) -> object:
            if isinstance(value, Text):
                return value(lang)
            if isinstance(value, BaseException):
                text = getattr(value, "user_text", None)
                if callable(text):
                    return text()(lang)
            return value

        return tr_in(lang, self.source, **{k: worded(v) for k, v in self.fields.items()})

    @property
    def en(self) -> str:
        return self("en")

    @property
    def ko(self) -> str:
        return self("ko")

    def __str__(self) -> str:
        return self.en

    def __repr__(self) -> str:
        return f"Text({self.source!r}, **{dict(self.fields)!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Text)
            and other.source == self.source
            and dict(other.fields) == dict(self.fields)
        )

    def __hash__(self) -> int:
        return hash(self.source)


def _err_text(exc: BaseException) -> Text:
    if callable(getattr(exc, "user_text", None)):
        return Text("{error}", error=exc)
    return Text("{error}", error=str(exc) or type(exc).__name__)
