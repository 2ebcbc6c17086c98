"""One user-facing sentence as a code and its fields (Qt-free), worded in the user's language
through modu_desktop.i18n."""

from __future__ import annotations

from collections.abc import Mapping


class Text:
    """One user-facing sentence as a code and its fields: ``source`` is the English text with
    ``{field}`` places, which is also the key of its Korean in the catalogues
    (``resources/translations/ko/*.json``); :meth:`__call__` words it through
    ``modu_desktop.i18n``. A field that is itself a ``Text``, or an error with
    ``user_message(lang)``, is worded in the same language."""

    __slots__ = ("fields", "source")

    def __init__(self, source: str, /, **fields: object) -> None:
        self.source = source
        self.fields: Mapping[str, object] = fields

    def __call__(self, lang: str = "ko") -> str:
        from modu_desktop.i18n import tr_in

        def worded(value: object) -> object:
            if isinstance(value, Text | ByLanguage):
                return value(lang)
            um = getattr(value, "user_message", None)
            if isinstance(value, BaseException) and callable(um):
                return str(um(lang))
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


class ByLanguage:
    """A field of a :class:`Text` worded apart in each language (a duration with its unit:
    ``ByLanguage("3 min", "3분")``)."""

    __slots__ = ("en", "ko")

    def __init__(self, en: str, ko: str) -> None:
        self.en, self.ko = en, ko

    def __call__(self, lang: str = "ko") -> str:
        return self.ko if lang == "ko" else self.en

    def __str__(self) -> str:
        return self.en

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ByLanguage) and (other.en, other.ko) == (self.en, self.ko)

    def __hash__(self) -> int:
        return hash((self.en, self.ko))


def _err_text(exc: BaseException) -> Text:
    if callable(getattr(exc, "user_message", None)):
        return Text("{error}", error=exc)
    return Text("{error}", error=str(exc) or type(exc).__name__)
