"""Pagination (`per_page`/`page` and the `Link` header) and the time filters of list endpoints."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from urllib.parse import urlencode

from modu_desktop.sandbox.rest.messages import ApiRequest

MAX_PER_PAGE = 100


def page_args(req: ApiRequest, default: int = 30) -> tuple[int, int]:
    """(per_page, page): per_page is capped at 100; values that are not numbers are ignored."""
    try:
        per_page = min(MAX_PER_PAGE, max(1, int(req.arg("per_page") or default)))
    except ValueError:
        per_page = default
    try:
        page = max(1, int(req.arg("page") or 1))
    except ValueError:
        page = 1
    return per_page, page


def last_page(total: int, per_page: int) -> int:
    return max(1, math.ceil(total / per_page))


def link_header(api: str, req: ApiRequest, page: int, last: int) -> dict[str, str]:
    """GitHub's `Link`: prev/first from page 2 on, next/last before the last page; none when
    everything fits on one page. Other query parameters are kept, `page` goes last."""
    query = urlencode([(k, v[-1]) for k, v in req.query.items() if k != "page"])
    base = f"{api}{req.raw_path}?{query + '&' if query else ''}page="
    links: list[str] = []
    if page > 1:
        links.append(f'<{base}{min(page - 1, last)}>; rel="prev"')
    if page < last:
        links.append(f'<{base}{page + 1}>; rel="next"')
        links.append(f'<{base}{last}>; rel="last"')
    if page > 1:
        links.append(f'<{base}1>; rel="first"')
    return {"Link": ", ".join(links)} if links else {}


_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_timestamp(value: str) -> float | None:
    """ISO 8601 (`YYYY-MM-DDTHH:MM:SSZ`, an offset, or a bare date at 00:00 UTC) → epoch."""
    text = value.strip()
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def _day_end(value: str) -> float | None:
    start = parse_timestamp(value)
    if start is None:
        return None
    return start + 86400 - 0.001 if _DATE_ONLY.match(value.strip()) else start


def parse_date_range(text: str) -> tuple[float, float] | None:
    """GitHub's search date syntax for `created`: `2024-01-01`, `>=…`, `>…`, `<=…`, `<…`,
    `A..B` (`*` open). ("" → everything; None → not understood.)"""
    text = text.strip()
    low, high = float("-inf"), float("inf")
    if not text:
        return low, high
    if ".." in text:
        a, _, b = text.partition("..")
        lo = low if a.strip() == "*" else parse_timestamp(a)
        hi = high if b.strip() == "*" else _day_end(b)
        return None if lo is None or hi is None else (lo, hi)
    for op in (">=", "<=", ">", "<"):
        if text.startswith(op):
            rest = text[len(op) :]
            if op == ">=":
                bound = parse_timestamp(rest)
                return None if bound is None else (bound, high)
            if op == ">":
                bound = _day_end(rest)
                return None if bound is None else (bound + 0.001, high)
            if op == "<=":
                bound = _day_end(rest)
                return None if bound is None else (low, bound)
            bound = parse_timestamp(rest)
            return None if bound is None else (low, bound - 0.001)
    lo, hi = parse_timestamp(text), _day_end(text)
    return None if lo is None or hi is None else (lo, hi)
