"""A tiny route table: URL templates like GitHub's docs ("/repos/{owner}/{repo}") → handlers."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

H = TypeVar("H")

# Parameters that may contain slashes (a file path, a ref like "heads/main", a tree named by
# git's "<rev>:<folder>" like "main:docs/bootcamp").
GREEDY_PARAMS = {"path", "ref", "tree_sha"}


@dataclass(frozen=True)
class Route(Generic[H]):
    method: str
    template: str
    pattern: re.Pattern[str]
    handler: H


@dataclass(frozen=True)
class Match(Generic[H]):
    route: Route[H] | None  # None: the path exists but not for this method, or no such path
    template: str  # for stats; "(unmatched)" when no template fits
    params: dict[str, str]


def _compile(template: str) -> re.Pattern[str]:
    def param(m: re.Match[str]) -> str:
        name = m.group(1)
        body = ".+" if name in GREEDY_PARAMS else "[^/]+"
        return f"(?P<{name}>{body})"

    return re.compile("^" + re.sub(r"\\\{(\w+)\\\}", param, re.escape(template)) + "$")


class Router(Generic[H]):
    def __init__(self) -> None:
        self._routes: list[Route[H]] = []

    def add(self, method: str, template: str) -> Callable[[H], H]:
        def register(handler: H) -> H:
            self._routes.append(Route(method, template, _compile(template), handler))
            return handler

        return register

    def match(self, method: str, path: str) -> Match[H]:
        """Match on the raw (still percent-encoded) path; params are returned raw too."""
        template = "(unmatched)"
        for route in self._routes:
            found = route.pattern.match(path)
            if not found:
                continue
            template = route.template
            if route.method == method:
                return Match(route, template, found.groupdict())
        return Match(None, template, {})
