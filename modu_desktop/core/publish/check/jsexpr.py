"""Is the text between ``{`` and ``}`` a JavaScript expression the site can render? (Qt-free)

MDX parses ``{…}`` as a JavaScript expression (acorn) when the page is compiled and evaluates it
when the page is rendered at build time, inside the page's component function. Three outcomes
break the build:

- a syntax error (``{a: 1}``, ``{...}``, ``{if}``): compilation fails;
- a name that is not defined (``{name}``, ``{홍길동}``, ``{a, b}``): rendering fails with
  "name is not defined";
- an object as page content (``{{}}``, ``{props}``, ``{Math}``): React refuses to render it.

This is a small expression parser (literals, names, member access, calls, operators, arrays,
objects, templates, arrow functions), enough for what people type; anything it does not know is
reported as a syntax error, which is the safe side (the fix, ``\\{``, shows the text as typed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Names defined where the page's expressions run: JavaScript and Node globals, the component's
# ``props``, and what Docusaurus exports from every page module.
GLOBALS = frozenset(
    [
        "Math",
        "JSON",
        "Date",
        "String",
        "Number",
        "Boolean",
        "Array",
        "Object",
        "Symbol",
        "BigInt",
        "undefined",
        "NaN",
        "Infinity",
        "parseInt",
        "parseFloat",
        "isNaN",
        "isFinite",
        "encodeURIComponent",
        "decodeURIComponent",
        "encodeURI",
        "decodeURI",
        "console",
        "globalThis",
        "process",
        "Intl",
        "Promise",
        "Map",
        "Set",
        "WeakMap",
        "RegExp",
        "Error",
        "TypeError",
        "props",
        "frontMatter",
        "contentTitle",
        "toc",
    ]
)
# Of those, the ones whose value is an object (rendering one as page content fails).
OBJECT_GLOBALS = frozenset(
    ["Math", "JSON", "console", "globalThis", "process", "Intl", "props", "frontMatter", "toc"]
)
RESERVED = frozenset(
    [
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
        "let",
        "static",
        "implements",
        "interface",
        "package",
        "private",
        "protected",
        "public",
        "await",
    ]
)


@dataclass(frozen=True, slots=True)
class ExprVerdict:
    kind: str  # "ok" | "empty" | "syntax" | "undefined" | "object"
    name: str = ""  # the undefined name
    detail: str = ""


_NUM = re.compile(
    r"(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)"
    r"(?:[eE][+-]?\d+)?)n?"
)
_PUNCT = sorted(
    [
        ">>>=",
        "...",
        "===",
        "!==",
        "**=",
        "<<=",
        ">>=",
        ">>>",
        "&&=",
        "||=",
        "??=",
        "=>",
        "==",
        "!=",
        "<=",
        ">=",
        "&&",
        "||",
        "??",
        "?.",
        "++",
        "--",
        "+=",
        "-=",
        "*=",
        "/=",
        "%=",
        "&=",
        "|=",
        "^=",
        "**",
        "<<",
        ">>",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        ",",
        "<",
        ">",
        "+",
        "-",
        "*",
        "/",
        "%",
        "&",
        "|",
        "^",
        "!",
        "~",
        "?",
        ":",
        "=",
        ".",
        "@",
        "#",
    ],
    key=len,
    reverse=True,
)


class _SyntaxError(Exception):
    pass


@dataclass(slots=True)
class _Tok:
    kind: str  # num str tmpl name punct regex eof
    value: str
    parts: tuple[str, ...] = ()  # template: the ${} expressions


def _tokenize(src: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i, n = 0, len(src)
    while i < n:
        ch = src[i]
        if ch.isspace():
            i += 1
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if j < 0:
                raise _SyntaxError("unterminated comment")
            i = j + 2
            continue
        if ch in "\"'":
            j = _string_end(src, i)
            toks.append(_Tok("str", src[i + 1 : j]))
            i = j + 1
            continue
        if ch == "`":
            i, tok = _template(src, i)
            toks.append(tok)
            continue
        if ch.isdigit() or (ch == "." and i + 1 < n and src[i + 1].isdigit()):
            m = _NUM.match(src, i)
            if not m or not m.group(0):
                raise _SyntaxError("bad number")
            j = m.end()
            if j < n and (src[j].isalnum() or src[j] in "_$"):
                raise _SyntaxError("identifier directly after number")
            toks.append(_Tok("num", m.group(0)))
            i = j
            continue
        if ch == "\\" or ch == "$" or ch == "_" or (ch + "a").isidentifier():
            j = i + 1
            while j < n and (("a" + src[j]).isidentifier() or src[j] in "$\u200c\u200d"):
                j += 1
            if ch == "\\":
                raise _SyntaxError("escape in name")
            toks.append(_Tok("name", src[i:j]))
            i = j
            continue
        if ch == "/" and _regex_allowed(toks):
            j = _regex_end(src, i)
            toks.append(_Tok("regex", src[i:j]))
            i = j
            continue
        for p in _PUNCT:
            if src.startswith(p, i):
                toks.append(_Tok("punct", p))
                i += len(p)
                break
        else:
            raise _SyntaxError(f"unexpected character {ch!r}")
    toks.append(_Tok("eof", ""))
    return toks


def _string_end(src: str, i: int) -> int:
    """The index of the quote that closes the string opened at ``i``."""
    quote, j, n = src[i], i + 1, len(src)
    while j < n and src[j] != quote:
        if src[j] == "\\":
            j += 1
        elif src[j] == "\n":
            raise _SyntaxError("unterminated string")
        j += 1
    if j >= n:
        raise _SyntaxError("unterminated string")
    return j


def _regex_end(src: str, i: int) -> int:
    """The index just after the regular expression literal at ``i`` and its flags."""
    j, n = i + 1, len(src)
    in_class = False
    while j < n:
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == "\n":
            raise _SyntaxError("unterminated regex")
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            break
        j += 1
    if j >= n:
        raise _SyntaxError("unterminated regex")
    j += 1
    while j < n and src[j].isalpha():
        j += 1
    return j


def _regex_allowed(toks: list[_Tok]) -> bool:
    if not toks:
        return True
    last = toks[-1]
    if last.kind in ("num", "str", "tmpl", "regex"):
        return False
    if last.kind == "name":
        return last.value in RESERVED and last.value not in ("this", "true", "false", "null")
    return last.value not in (")", "]", "}")


def _template(src: str, i: int) -> tuple[int, _Tok]:
    j, n = i + 1, len(src)
    parts: list[str] = []
    while j < n:
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == "`":
            return j + 1, _Tok("tmpl", src[i : j + 1], tuple(parts))
        if src.startswith("${", j):
            depth, k = 1, j + 2
            while k < n and depth:
                if src[k] == "{":
                    depth += 1
                elif src[k] == "}":
                    depth -= 1
                k += 1
            if depth:
                raise _SyntaxError("unterminated template")
            parts.append(src[j + 2 : k - 1])
            j = k
            continue
        j += 1
    raise _SyntaxError("unterminated template")


_BINARY = {
    "??": 1,
    "||": 2,
    "&&": 3,
    "|": 4,
    "^": 5,
    "&": 6,
    "==": 7,
    "!=": 7,
    "===": 7,
    "!==": 7,
    "<": 8,
    ">": 8,
    "<=": 8,
    ">=": 8,
    "instanceof": 8,
    "in": 8,
    "<<": 9,
    ">>": 9,
    ">>>": 9,
    "+": 10,
    "-": 10,
    "*": 11,
    "/": 11,
    "%": 11,
    "**": 12,
}
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^="}
_ASSIGN |= {"&&=", "||=", "??="}


class _Parser:
    """Recursive descent; returns a rough type ("obj", "prim", "any") and collects free names."""

    def __init__(self, toks: list[_Tok]) -> None:
        self.toks = toks
        self.i = 0
        self.free: list[str] = []
        self.scopes: list[set[str]] = []

    # helpers
    def peek(self, k: int = 0) -> _Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def at(self, value: str) -> bool:
        t = self.peek()
        return t.kind in ("punct", "name") and t.value == value

    def eat(self, value: str) -> bool:
        if self.at(value):
            self.i += 1
            return True
        return False

    def expect(self, value: str) -> None:
        if not self.eat(value):
            raise _SyntaxError(f"expected {value!r}")

    def use(self, name: str) -> None:
        if not any(name in s for s in self.scopes):
            self.free.append(name)

    # grammar
    def expression(self) -> str:
        kind = self.assign()
        while self.eat(","):
            kind = self.assign()
        return kind

    def assign(self) -> str:
        if self._arrow_ahead():
            return self.arrow()
        kind = self.conditional()
        t = self.peek()
        if t.kind == "punct" and t.value in _ASSIGN:
            self.i += 1
            return self.assign()
        return kind

    def _arrow_ahead(self) -> bool:
        t = self.peek()
        if t.kind == "name" and t.value not in RESERVED and self.peek(1).value == "=>":
            return True
        if t.value == "async" and self.peek(1).kind in ("name", "punct"):
            return self.peek(1).value == "(" or self.peek(2).value == "=>"
        if t.kind == "punct" and t.value == "(":
            depth, k = 0, self.i
            while k < len(self.toks):
                v = self.toks[k]
                if v.kind == "punct" and v.value in "([{":
                    depth += 1
                elif v.kind == "punct" and v.value in ")]}":
                    depth -= 1
                    if depth == 0:
                        nxt = self.toks[k + 1] if k + 1 < len(self.toks) else None
                        return nxt is not None and nxt.value == "=>"
                elif v.kind == "eof":
                    return False
                k += 1
        return False

    def arrow(self) -> str:
        self.eat("async")
        params: set[str] = set()
        if self.peek().kind == "name":
            params.add(self.peek().value)
            self.i += 1
        else:
            self.expect("(")
            while not self.at(")"):
                self.eat("...")
                t = self.peek()
                if t.kind != "name" or t.value in RESERVED:
                    raise _SyntaxError("unsupported parameter")
                params.add(t.value)
                self.i += 1
                if self.eat("="):
                    self.assign()
                if not self.eat(","):
                    break
            self.expect(")")
        self.expect("=>")
        self.scopes.append(params)
        try:
            if self.at("{"):
                raise _SyntaxError("function bodies are not supported")
            self.assign()
        finally:
            self.scopes.pop()
        return "any"

    def conditional(self) -> str:
        kind = self.binary(1)
        if self.eat("?"):
            a = self.assign()
            self.expect(":")
            b = self.assign()
            return a if a == b else "any"
        return kind

    def binary(self, min_prec: int) -> str:
        kind = self.unary()
        while True:
            t = self.peek()
            prec = _BINARY.get(t.value) if t.kind in ("punct", "name") else None
            if prec is None or prec < min_prec:
                return kind
            self.i += 1
            right = self.binary(prec if t.value == "**" else prec + 1)
            kind = (kind if kind == right else "any") if t.value in ("||", "&&", "??") else "prim"

    def unary(self) -> str:
        t = self.peek()
        if t.kind == "punct" and t.value in ("!", "~", "+", "-", "++", "--"):
            self.i += 1
            self.unary()
            return "prim"
        if t.kind == "name" and t.value in ("typeof", "void", "delete"):
            self.i += 1
            if t.value == "typeof" and self.peek().kind == "name" and self._bare_name_next():
                self.i += 1  # typeof an undeclared name does not throw
            else:
                self.unary()
            return "prim"
        if t.kind == "name" and t.value == "await":
            raise _SyntaxError("await outside an async function")
        kind = self.postfix()
        if self.peek().value in ("++", "--") and self.peek().kind == "punct":
            self.i += 1
            return "prim"
        return kind

    def _bare_name_next(self) -> bool:
        t = self.peek()
        nxt = self.peek(1)
        return (
            t.value not in RESERVED
            and not (nxt.kind == "punct" and nxt.value in (".", "?.", "[", "(", "`"))
            and nxt.kind != "tmpl"
        )

    def postfix(self) -> str:
        if self.at("new"):
            self.i += 1
            self.postfix_no_call()
            if self.at("("):
                self.arguments()
            return self.member_tail("obj", allow_call=True)
        kind = self.primary()
        return self.member_tail(kind, allow_call=True)

    def postfix_no_call(self) -> None:
        if self.at("new"):
            self.i += 1
            self.postfix_no_call()
            return
        kind = self.primary()
        self.member_tail(kind, allow_call=False)

    def member_tail(self, kind: str, *, allow_call: bool) -> str:
        while True:
            t = self.peek()
            if t.kind == "punct" and t.value in (".", "?."):
                self.i += 1
                if self.peek().kind == "name":
                    prop = self.peek().value
                    self.i += 1
                    if kind == "obj" and prop == "components":
                        continue  # props.components: an object too
                elif t.value == "?." and self.at("("):
                    self.arguments()
                elif t.value == "?." and self.at("["):
                    self.i += 1
                    self.expression()
                    self.expect("]")
                elif self.at("#"):
                    raise _SyntaxError("private name")
                else:
                    raise _SyntaxError("expected a property name")
                kind = "any"
            elif t.kind == "punct" and t.value == "[":
                self.i += 1
                self.expression()
                self.expect("]")
                kind = "any"
            elif allow_call and t.kind == "punct" and t.value == "(":
                self.arguments()
                kind = "any"
            elif t.kind == "tmpl":
                self._template_parts(t)
                self.i += 1
                kind = "any"
            else:
                return kind

    def arguments(self) -> None:
        self.expect("(")
        while not self.at(")"):
            self.eat("...")
            self.assign()
            if not self.eat(","):
                break
        self.expect(")")

    def _template_parts(self, tok: _Tok) -> None:
        for part in tok.parts:
            sub = _Parser(_tokenize(part))
            sub.scopes = self.scopes
            sub.expression()
            if sub.peek().kind != "eof":
                raise _SyntaxError("bad template expression")
            self.free.extend(sub.free)

    def primary(self) -> str:
        t = self.peek()
        self.i += 1
        if t.kind in ("num", "str", "regex"):
            return "prim" if t.kind != "regex" else "obj"
        if t.kind == "tmpl":
            self._template_parts(t)
            return "prim"
        if t.kind == "name":
            if t.value in ("true", "false", "null", "this"):
                return "prim"
            if t.value in RESERVED:
                raise _SyntaxError(f"unexpected keyword {t.value}")
            self.use(t.value)
            if t.value in OBJECT_GLOBALS:
                return "obj"
            return "prim" if t.value in ("undefined", "NaN", "Infinity") else "any"
        if t.kind == "punct":
            if t.value == "(":
                kind = self.expression()
                self.expect(")")
                return kind
            if t.value == "[":
                kinds: list[str] = []
                while not self.at("]"):
                    if self.eat(","):
                        continue
                    self.eat("...")
                    kinds.append(self.assign())
                    if not self.eat(","):
                        break
                self.expect("]")
                return "obj" if "obj" in kinds else "arr"
            if t.value == "{":
                self.object_literal()
                return "obj"
        raise _SyntaxError(f"unexpected {t.value or 'end'}")

    def object_literal(self) -> None:
        while not self.at("}"):
            if self.eat("..."):
                self.assign()
            else:
                key = self.peek()
                if key.kind in ("name", "str", "num"):
                    self.i += 1
                    if self.eat(":"):
                        self.assign()
                    elif key.kind == "name" and key.value not in RESERVED:
                        self.use(key.value)  # shorthand {a}
                        if self.eat("="):
                            raise _SyntaxError("shorthand default outside a pattern")
                    else:
                        raise _SyntaxError("expected ':'")
                elif self.eat("["):
                    self.assign()
                    self.expect("]")
                    self.expect(":")
                    self.assign()
                else:
                    raise _SyntaxError("bad object key")
            if not self.eat(","):
                break
        self.expect("}")


_ONLY_COMMENTS = re.compile(r"^(?:\s|//[^\n]*|/\*.*?\*/)*$", re.S)


def check_expression(src: str, *, as_child: bool = True) -> ExprVerdict:
    """Classify the text of one ``{…}``. ``as_child``: the value is rendered as page content
    (not an attribute value), so an object fails too."""
    if _ONLY_COMMENTS.match(src):
        return ExprVerdict("empty")
    try:
        toks = _tokenize(src)
        parser = _Parser(toks)
        kind = parser.expression()
        if parser.peek().kind != "eof":
            raise _SyntaxError(f"unexpected {parser.peek().value!r}")
    except _SyntaxError as exc:
        return ExprVerdict("syntax", detail=str(exc))
    except RecursionError:
        return ExprVerdict("syntax", detail="too deeply nested")
    for name in parser.free:
        if name not in GLOBALS:
            return ExprVerdict("undefined", name=name)
    if as_child and kind == "obj":
        return ExprVerdict("object")
    return ExprVerdict("ok")


def check_spread(src: str) -> ExprVerdict:
    """An attribute spread ``{...expr}``: the names used must be defined."""
    body = src.strip()
    if not body.startswith("..."):
        return ExprVerdict("syntax", detail="expected ...")
    return check_expression(body[3:], as_child=False)


def incomplete_expression(src: str) -> bool:
    """Would acorn stop at the end of ``src`` wanting more — an unterminated string, template,
    comment or bracket? MDX then reads on past the ``}`` (``{"}"}`` is one expression)."""
    try:
        toks = _tokenize(src)
    except _SyntaxError as exc:
        return str(exc).startswith("unterminated")
    depth = 0
    for t in toks:
        if t.kind == "punct" and t.value in ("(", "["):
            depth += 1
        elif t.kind == "punct" and t.value in (")", "]"):
            depth -= 1
    return depth > 0
