"""One plain sentence per finding, through the app's one translation mechanism (Qt-free).

English source texts live here; Korean in ``resources/translations/ko/publish.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from modu_desktop.i18n import tr


class _Edit(Protocol):
    @property
    def replacement(self) -> str: ...

    @property
    def original(self) -> str: ...


class Finding(Protocol):
    """What the wording reads of a finding (``model.Finding``)."""

    @property
    def code(self) -> str: ...

    @property
    def fields(self) -> Mapping[str, str]: ...

    @property
    def fix(self) -> _Edit | None: ...

    @property
    def breaks_build(self) -> bool: ...


_FM_PROBLEMS = {
    "colon": "The value of “{key}” has a second colon; put the value in double quotes.",
    "quote": "The quotation mark in “{key}” is never closed.",
    "after-quote": "There is text after the closing quotation mark of “{key}”.",
    "bracket": "A bracket in “{key}” is never closed.",
    "indicator": "The value of “{key}” cannot start with “{char}”; put it in double quotes.",
    "not-key-value": "The line “{line}” at the top is not in “key: value” form.",
    "indent": "The indented line “{line}” is read as part of the line above it.",
}
_EXPECTED = {
    "string": "text",
    "number": "a number",
    "boolean": "true or false",
    "list": "a list",
}


def _t(lang: str | None, source: str, /, **fields: str) -> str:
    if lang == "en":
        return source.format(**fields) if fields else source
    return tr(source, **fields)


def sentence(f: Finding, lang: str | None = None) -> str:
    """The finding as one plain sentence (in the current language, or ``lang="en"``: the
    English source, e.g. for a build log written from another thread)."""

    def tr(source: str, /, **fields: str) -> str:
        return _t(lang, source, **fields)

    x = dict(f.fields)
    for family in (_markup_sentence, _block_sentence, _text_sentence):
        said = family(f, x, tr)
        if said is not None:
            return said
    return tr("This part of the page may not be published as written.")


class _Words(Protocol):
    def __call__(self, source: str, /, **fields: str) -> str: ...


def _markup_sentence(f: Finding, x: dict[str, str], tr: _Words) -> str | None:
    """What the site's MDX compiler refuses: marks between “<” and “>”, braces, notes."""
    c = f.code
    if c == "mdx-void-tag":
        return tr("“<{tag}>” must be written “<{tag} />” or the site cannot be built.", **x)
    if c == "mdx-unclosed-tag":
        return tr("“<{tag}>” has no “</{tag}>” after it, so the site cannot be built.", **x)
    if c == "mdx-not-a-tag":
        return tr(
            "The site cannot read the “<” in “{tag}” as a character, so it cannot be built.", **x
        )
    if c == "mdx-lt-not-tag":
        return tr("The site cannot read the “<” here as a character, so it cannot be built.", **x)
    if c == "mdx-unquoted-value":
        return tr("A value in “{tag}” has no quotation marks, so the site cannot be built.", **x)
    if c == "mdx-stray-closing-tag":
        return tr("“</{tag}>” has no “<{tag}>” before it, so the site cannot be built.", **x)
    if c == "mdx-mismatched-closing-tag":
        return tr("“</{tag}>” comes before “</{expected}>”, so the site cannot be built.", **x)
    if c == "mdx-void-children":
        return tr("Nothing may be placed inside “<{tag}>”; the page cannot be shown.", **x)
    if c == "mdx-unknown-component":
        if f.breaks_build:
            return tr(
                "The site does not know the mark “<{tag}>”, so the page cannot be shown.", **x
            )
        return tr("The site does not know the mark “<{tag}>”; it is left out of this block.", **x)
    if c == "mdx-style-string":
        if f.breaks_build:
            return tr(
                'The site cannot read the look written as style="…", so the page cannot be shown.',
                **x,
            )
        return tr('The look written as style="…" is left out of this block on the site.', **x)
    if c == "mdx-html-comment":
        if x.get("note"):
            return tr("A hidden note (“{note}”) stops the site from being built.", **x)
        return tr("An empty hidden note stops the site from being built.", **x)
    if c == "mdx-unclosed-brace":
        return tr(
            "A “{open}” is never closed with “{close}”, so the site cannot be built.",
            open="{",
            close="}",
        )
    if c == "mdx-expression-syntax":
        return tr("The site cannot read the braces in “{expr}”, so it cannot be built.", **x)
    if c == "mdx-undefined-name":
        return tr("The site cannot show “{expr}” with its braces, so it cannot be built.", **x)
    if c == "mdx-object-content":
        return tr("The site cannot show “{expr}” with its braces, so it cannot be built.", **x)
    if c == "mdx-esm":
        return tr(
            "A paragraph that starts with the word “{word}” stops the site from being built.", **x
        )
    if c == "mdx-autolink":
        return tr(
            "An address between “<” and “>” (“<{url}>”) stops the site from being built.", **x
        )
    return None


def _block_sentence(f: Finding, x: dict[str, str], tr: _Words) -> str | None:
    """Brochure blocks and pictures."""
    c = f.code
    if c == "block-expression-dropped":
        return tr("“{expr}”, in braces, is left out of this block on the site.", **x)
    if c == "image-base-url":
        return tr(
            "The picture address “{url}” starts with the site's own address “{base}”, so the "
            "site cannot be built: the picture is found as “{fixed}”.",
            **x,
        )
    if c == "image-missing":
        return tr("The picture “{url}” is not in the repository, so the site cannot be built.", **x)
    if c == "block-image-missing":
        return tr(
            "The picture “{url}” is not in the repository; the block will show no picture.", **x
        )
    if c == "picture-missing":
        return tr(
            "The picture “{url}” is not in the repository; the page will show no picture there.",
            **x,
        )
    if c == "fm-picture-missing":
        return tr(
            "The picture “{url}” is not in the repository; the page is shared without a picture.",
            **x,
        )
    if c == "block-unknown":
        if x.get("suggestion"):
            return tr("There is no block “{name}”; did you mean “{suggestion}”?", **x)
        return tr("There is no block “{name}”; its lines will show as plain text.", **x)
    if c == "block-unclosed":
        return tr(
            "The block “{name}” is not closed with “:::”; the rest of the page goes into it.", **x
        )
    if c == "block-opener-text":
        return tr("Text after “:::{name}” makes the site show this block as plain text.", **x)
    if c == "block-stray-close":
        return tr("This “:::” closes no block and will show on the page.", **x)
    if c == "block-ignored-line":
        if x.get("hint") == "key":
            return tr(
                "The site ignores “{line}”: keys must be English letters, like “title:”.", **x
            )
        return tr("The site ignores the line “{line}” in this block.", **x)
    if c == "block-missing-field":
        return tr("The block “{block}” needs “{field}:”.", **x)
    if c == "block-directive-dropped":
        return tr(
            "In this block the site leaves out “{word}” (1:1 shows as 1); keep the “:” as text.",
            **x,
        )
    return None


def _text_sentence(f: Finding, x: dict[str, str], tr: _Words) -> str | None:
    """Markdown the site reads otherwise than it looks, and the settings at the top."""
    c = f.code
    if c == "md-emphasis-literal":
        if len(x.get("marker", "")) == 2:
            return tr(
                "On the site “{text}” is not bold: the “{marker}” around it show as typed.", **x
            )
        return tr(
            "On the site “{text}” is not slanted: the “{marker}” around it show as typed.", **x
        )
    if c == "md-tilde-strike":
        return tr("On the site the text between the two “~” is struck through: “{text}”.", **x)
    if c == "md-number-list":
        return tr("On the site the line “{line}” becomes a numbered list, not a line of text.", **x)
    if c == "md-list-not-formed":
        if x.get("hint") == "space":
            return tr(
                "On the site “{line}” is not a list item; put a space after the mark to make one.",
                **x,
            )
        return tr(
            "On the site “{line}” is not a list item: it joins the line above. Put an empty line "
            "above it to start a list.",
            **x,
        )
    if c == "md-indent-not-code":
        return tr(
            "On the site the indented text “{line}” shows as an ordinary paragraph: no box, and "
            "its lines run together.",
            **x,
        )
    if c == "fm-unclosed":
        return tr(
            "The settings at the top are not closed with “---”, so the site cannot be built.", **x
        )
    if c == "fm-yaml":
        source = _FM_PROBLEMS.get(x.get("problem", ""), "The settings at the top cannot be read.")
        return tr(source, **x)
    if c == "fm-duplicate-key":
        return tr("“{key}” is set twice at the top, so the site cannot be built.", **x)
    if c == "fm-type":
        expected = tr(_EXPECTED.get(x.get("expected", ""), "text"))
        return tr("“{key}” at the top must be {expected}.", key=x.get("key", ""), expected=expected)
    if c == "fm-missing-field":
        return tr("The settings at the top need “{field}:”.", **x)
    return None


def fix_label(f: Finding) -> str:
    """What the one-click fix does, as a button label ("" when there is none)."""
    if f.fix is None:
        return ""
    c = f.code
    if c == "mdx-void-tag":
        return tr("Write “{replacement}”", replacement="<" + f.fields.get("tag", "") + " />")
    if c == "mdx-html-comment":
        return tr("Remove the note")
    if c in ("mdx-unclosed-tag", "mdx-stray-closing-tag", "mdx-unknown-component"):
        return tr("Remove “{mark}”", mark=_mark(f))
    if c in ("mdx-expression-syntax", "mdx-undefined-name", "mdx-object-content"):
        return _brace_label(f)
    if c == "block-expression-dropped":
        return _brace_label(f)
    if c in ("mdx-style-string",):
        return tr("Write the look the way the site reads it")
    if c == "block-unknown":
        return tr("Change to “{name}”", name=f.fix.replacement)
    if c == "block-unclosed":
        return tr("Add “:::”")
    if c in ("fm-yaml", "mdx-unquoted-value"):
        return tr("Put the value in quotes")
    if c == "block-opener-text":
        return tr("Make it the title: “{replacement}”", replacement=f.fix.replacement)
    if c == "mdx-autolink":
        return tr("Write the address alone")
    if c == "mdx-esm":
        return tr("Keep the word as text")
    if c == "md-emphasis-literal":
        return tr("Make it bold") if "strong" in f.fix.replacement[:8] else tr("Make it slanted")
    if c == "md-tilde-strike":
        return tr("Keep the “~” as typed")
    if c == "md-number-list":
        return tr("Keep the number as typed")
    if c == "block-directive-dropped":
        return tr("Keep the “:” as typed")
    if c == "mdx-void-children":
        return tr("Make both line breaks")
    if c == "fm-unclosed":
        return tr("Add the closing “---”")
    if c in ("fm-type", "image-base-url"):
        return tr("Write “{replacement}”", replacement=f.fix.replacement)
    return tr("Show as text")


def _mark(f: Finding) -> str:
    tag = f.fields.get("tag", "")
    return "</" + tag + ">" if f.code == "mdx-stray-closing-tag" else "<" + tag + ">"


def _brace_label(f: Finding) -> str:
    assert f.fix is not None
    if not f.fix.replacement:
        return tr("Remove “{expr}”", expr=f.fields.get("expr", ""))
    return tr("Keep “{words}” without the braces", words=_short(f.fix.replacement))


def _short(text: str) -> str:
    return text if len(text) <= 30 else text[:27] + "…"


def fix_explanation(f: Finding) -> str:
    """One plain sentence on what the fix changes (the fix button's tooltip)."""
    if f.fix is None:
        return ""
    old, new = _short(f.fix.original.strip()), _short(f.fix.replacement.strip())
    if f.code == "mdx-html-comment":
        return tr("Removes the note. The page never showed it, so it looks the same.")
    if f.code == "mdx-esm":
        return tr("Puts a space before the word; the page shows the line as you wrote it.")
    if not new:
        return tr("Removes “{old}”; the words around it stay.", old=old)
    if not old:
        return tr("Adds “{new}”.", new=new)
    return tr("Changes “{old}” to “{new}”.", old=old, new=new)


def summary(breakers: int, others: int) -> str:
    if breakers:
        return tr("{n} problem(s) stop the site from being updated.", n=breakers)
    if others:
        return tr("The site will build, but {n} thing(s) will not show as written.", n=others)
    return tr("The site can be built with this page.")
