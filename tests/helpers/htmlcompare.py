"""Compare two HTML bodies element by element and text by text, after normalising what
legitimately differs between the site's build and our preview.

Normalisations (each one is a difference that does not change what a reader sees):

* comments are dropped (React writes ``<!-- -->`` between adjacent text pieces) and adjacent
  texts are joined; runs of white space become one space, and white space between block
  elements is dropped (the build's HTML is minified, ours is not);
* CSS-module classes lose their hash (``admonition_V2UN`` → ``admonition``): the build hashes
  module class names, the preview's stylesheet names them plainly; empty ``class=""`` goes;
* links: ``target``/``rel`` go (Docusaurus marks external links; the preview never
  navigates), and ``href`` is compared percent-decoded;
* pictures: only the element and its ``alt`` count (the build serves hashed copies with
  ``loading``/``decoding``/size; the preview serves the same file through its own scheme or a
  placeholder);
* relative link targets are compared resolved against the page's address (``/docs/ID``),
  as the site's router writes them;
* code blocks: each line is compared by its text (the site colours code with Prism, the
  preview draws it plain: colouring is not part of how the Markdown reads);
* our ``data-block`` marker on block roots goes (no stylesheet of the site matches it);
* ``style`` values are compared without spaces and trailing ``;``.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urljoin

import html5lib

Node = Any  # str (text) or tuple (tag, attrs, children)

_BLOCK = {
    "address", "article", "aside", "blockquote", "details", "div", "dl", "dd", "dt",
    "fieldset", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot",
    "th", "thead", "tr", "ul",
}  # fmt: skip
_HASHED = re.compile(r"^([A-Za-z][A-Za-z0-9]*)_[A-Za-z0-9_-]{4}$")
_WS = re.compile(r"\s+")


def _class(value: str) -> str | None:
    kept = []
    for name in value.split():
        m = _HASHED.match(name)
        kept.append(m.group(1) if m else name)
    return " ".join(sorted(kept)) or None


def _attrs(tag: str, attrs: dict[str, str]) -> tuple[tuple[str, str], ...]:
    out: dict[str, str] = {}
    for name, value in attrs.items():
        if name in ("target", "rel", "data-block"):
            continue
        if tag == "img" and name != "alt":
            continue
        if name == "class":
            cls = _class(value)
            if cls:
                out[name] = cls
            continue
        if name == "href":
            value = unquote(value)
            if not re.match(r"^([a-z][a-z0-9+.-]*:|/|#)", value, re.I):
                value = urljoin("/docs/page", value)
        if name == "style":
            value = re.sub(r"\s*([:;,])\s*", r"\1", value).strip().rstrip(";")
        out[name] = value
    return tuple(sorted(out.items()))


def _tree(element: Any) -> list[Node]:
    """Children of an etree element as normalised nodes."""
    out: list[Node] = []

    def text(value: str | None) -> None:
        if not value:
            return
        if out and isinstance(out[-1], str):
            out[-1] += value
        else:
            out.append(value)

    text(element.text)
    for child in element:
        if isinstance(child.tag, str):
            attrs = _attrs(child.tag, dict(child.attrib))
            if ("class", "token-line") in attrs:
                line = "".join(child.itertext())
                out.append((child.tag, attrs, [line] if line else []))
            else:
                out.append((child.tag, attrs, _tree(child)))
        text(child.tail)
    return _squash(out)


def _squash(nodes: list[Node]) -> list[Node]:
    """Collapse white space; drop white space next to block elements."""
    merged: list[Node] = []
    for node in nodes:
        if isinstance(node, str) and merged and isinstance(merged[-1], str):
            merged[-1] += node
        else:
            merged.append(node)
    out: list[Node] = []
    for i, node in enumerate(merged):
        if not isinstance(node, str):
            out.append(node)
            continue
        value = _WS.sub(" ", node)
        prev = merged[i - 1] if i > 0 else None
        nxt = merged[i + 1] if i + 1 < len(merged) else None
        if prev is None or (isinstance(prev, tuple) and prev[0] in _BLOCK):
            value = value.lstrip()
        if nxt is None or (isinstance(nxt, tuple) and nxt[0] in _BLOCK):
            value = value.rstrip()
        if value:
            out.append(value)
    return out


def normalise(fragment: str) -> list[Node]:
    root = html5lib.parseFragment(fragment, namespaceHTMLElements=False)
    return _tree(root)


def render(nodes: list[Node], indent: str = "") -> str:
    """A readable outline of normalised nodes (for failure messages)."""
    lines = []
    for node in nodes:
        if isinstance(node, str):
            lines.append(f"{indent}{node!r}")
        else:
            tag, attrs, children = node
            shown = " ".join(f'{k}="{v}"' for k, v in attrs)
            lines.append(f"{indent}<{tag}{' ' + shown if shown else ''}>")
            lines.append(render(children, indent + "  "))
    return "\n".join(line for line in lines if line)


def first_difference(ours: list[Node], theirs: list[Node], path: str = "") -> str | None:
    """Where two normalised trees first differ, in words; None when they are the same."""
    for i in range(max(len(ours), len(theirs))):
        a = ours[i] if i < len(ours) else None
        b = theirs[i] if i < len(theirs) else None
        here = f"{path}/{i}"
        if a == b:
            continue
        if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] and a[1] == b[1]:
            deeper = first_difference(a[2], b[2], f"{here}<{a[0]}>")
            if deeper:
                return deeper
            continue
        return f"at {here}: preview {_short(a)} / site {_short(b)}"
    return None


def _short(node: Node | None) -> str:
    if node is None:
        return "(nothing)"
    if isinstance(node, str):
        return repr(node[:80])
    return render([node])[:300].replace("\n", " ")
