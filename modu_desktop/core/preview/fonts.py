"""The web fonts the site names, shipped with the app, as ``@font-face`` rules (Qt-free).

The site's stylesheets load four font families from CDNs: Noto Sans KR and Nanum Gothic from
Google Fonts (``css2?family=…:wght@…``), Pretendard 1.3.9 (``pretendard.css``, static weights)
and GmarketSans (three ``@font-face`` rules of its own). The preview goes to no network: it
declares the same family names over the files in ``resources/preview/fonts`` (see the README
there for where each file comes from and its licence), with the weights the site asks its CDN
for, so the browser picks the same face for every ``font-weight`` as on the site (a weight the
site does not load — 600 in Noto Sans KR — falls to the next one, 700, in both).

Noto Sans KR ships as Google's variable build (one file per character slice, 3.4 MiB, instead of
five static weights, 11.5 MiB): its instances at the site's five weights have the same advance
widths as the static files Google serves and outlines within half a unit of 1000.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from modu_desktop.core.account.paths import resources_dir

FONTS_DIR = resources_dir() / "preview" / "fonts"

FONT_MIME = {".ttf": "font/ttf", ".woff": "font/woff", ".woff2": "font/woff2"}
_FORMAT = {".ttf": "truetype", ".woff": "woff", ".woff2": "woff2"}


@dataclass(frozen=True)
class ShippedFamily:
    """One CSS family name and the files that draw it.

    ``files`` maps a CSS ``font-weight`` value (one weight or a range for a variable file) to a
    file name under :data:`FONTS_DIR`. A sliced family (Google Fonts' way: one file per block
    of characters, each with its ``unicode-range``) has ``{slice}`` in its file names and a
    ``unicode.json`` (slice → range) in its folder; the browser fetches only the slices a page
    needs.
    """

    family: str
    files: tuple[tuple[str, str], ...]

    @property
    def sliced(self) -> bool:
        return any("{slice}" in name for _, name in self.files)

    def slices(self) -> dict[str, str]:
        """Slice name → ``unicode-range`` (empty for a family in whole files)."""
        if not self.sliced:
            return {}
        folder = Path(self.files[0][1]).parent
        table = json.loads((FONTS_DIR / folder / "unicode.json").read_text("utf-8"))
        return {key.strip("[]"): value for key, value in table.items()}

    def paths(self) -> list[str]:
        """Every file of the family, relative to :data:`FONTS_DIR`."""
        names = {name for _, name in self.files}
        if not self.sliced:
            return sorted(names)
        return sorted({n.format(slice=s) for n in names for s in self.slices()})


NANUM_WEIGHTS = ("400", "700", "800")

SHIPPED_FAMILIES: tuple[ShippedFamily, ...] = (
    # pretendard.css declares the nine static weights 100–900; the variable file covers them.
    ShippedFamily("Pretendard", (("100 900", "PretendardVariable.ttf"),)),
    # custom.css: Noto+Sans+KR:wght@300;400;500;700;800 — two ranges so that 600 falls to 700.
    ShippedFamily(
        "Noto Sans KR",
        (
            ("300 500", "noto-sans-kr/noto-sans-kr-{slice}-wght-normal.woff2"),
            ("700 800", "noto-sans-kr/noto-sans-kr-{slice}-wght-normal.woff2"),
        ),
    ),
    # custom.css: Nanum+Gothic:wght@400;700;800 (Google serves static files only).
    ShippedFamily(
        "Nanum Gothic",
        tuple((w, f"nanum-gothic/nanum-gothic-{{slice}}-{w}-normal.woff2") for w in NANUM_WEIGHTS),
    ),
    # custom.css: GmarketSans Light 300, Medium 500, Bold 700.
    ShippedFamily(
        "GmarketSans",
        (
            ("300", "gmarket-sans/GmarketSansLight.woff"),
            ("500", "gmarket-sans/GmarketSansMedium.woff"),
            ("700", "gmarket-sans/GmarketSansBold.woff"),
        ),
    ),
)


def shipped_family_names() -> frozenset[str]:
    return frozenset(f.family for f in SHIPPED_FAMILIES)


def _face(family: str, weight: str, url: str, suffix: str, unicode_range: str | None) -> str:
    rule = (
        f'@font-face{{font-family:"{family}";font-style:normal;font-weight:{weight};'
        f'font-display:block;src:url("{url}") format("{_FORMAT[suffix]}")'
    )
    if unicode_range:
        rule += f";unicode-range:{unicode_range}"
    return rule + "}"


def parse_unicode_range(text: str) -> tuple[tuple[int, int], ...]:
    """A CSS ``unicode-range`` value as inclusive code point intervals (``U+4??`` too)."""
    spans = []
    for part in text.split(","):
        token = part.strip().upper().removeprefix("U+")
        if not token:
            continue
        if "?" in token:
            spans.append((int(token.replace("?", "0"), 16), int(token.replace("?", "F"), 16)))
            continue
        lo, _, hi = token.partition("-")
        spans.append((int(lo, 16), int(hi or lo, 16)))
    return tuple(spans)


def _covers_any(spans: tuple[tuple[int, int], ...], points: list[int]) -> bool:
    """Whether a code point of ``points`` (sorted) lies in one of ``spans``."""
    for lo, hi in spans:
        at = bisect_left(points, lo)
        if at < len(points) and points[at] <= hi:
            return True
    return False


def font_faces(
    url_for: Callable[[str], str],
    *,
    families: Collection[str] | None = None,
    characters: str | None = None,
) -> str:
    """``@font-face`` rules of the shipped families, each file named by ``url_for(path)`` (a
    path under :data:`FONTS_DIR`), in the order the preview declares them.

    ``families``: only these (None: all). ``characters``: only the slices of a sliced family
    whose ``unicode-range`` covers one of them (None: every slice), as a browser would fetch.
    """
    points = None if characters is None else sorted(set(map(ord, characters)))
    rules = []
    for fam in SHIPPED_FAMILIES:
        if families is not None and fam.family not in families:
            continue
        slices = fam.slices()
        if points is not None:
            slices = {
                key: unicode_range
                for key, unicode_range in slices.items()
                if _covers_any(parse_unicode_range(unicode_range), points)
            }
        for weight, name in fam.files:
            suffix = Path(name).suffix
            if not fam.sliced:
                rules.append(_face(fam.family, weight, url_for(name), suffix, None))
                continue
            for key, unicode_range in slices.items():
                url = url_for(name.format(slice=key))
                rules.append(_face(fam.family, weight, url, suffix, unicode_range))
    return "\n".join(rules) + "\n" if rules else ""


@lru_cache(maxsize=8)
def fonts_css(base_url: str) -> str:
    """``@font-face`` rules for every shipped family, the files named under ``base_url``.

    Declared after the site's own stylesheets: where the site declares the same family, weight
    and style (GmarketSans), the later rule wins, so the CDN files are never asked for.
    """
    base = base_url.rstrip("/")
    return font_faces(lambda name: f"{base}/{name}")


_COMMENT_RE = re.compile(r"/\*.*?\*/", re.S)
_FONT_FACE_RE = re.compile(r"@font-face\s*\{[^}]*\}", re.I)
_IMPORT_RE = re.compile(r"@import\b[^;]*;", re.I)
_DECLARATION_RE = re.compile(r"(?<![\w.#-])(--[\w-]+|font-family|font)\s*:\s*([^;{}]*)", re.I)
_VAR_RE = re.compile(r"var\(\s*(--[\w-]+)")


def families_drawn(css_texts: Iterable[str]) -> frozenset[str]:
    """The shipped families that ``css_texts`` (stylesheets and ``style`` attributes) draw text
    in: named in a ``font-family`` or ``font`` declaration, directly or through the custom
    properties it reads (``var(--theme-font-family)`` → the palette's family). A family that
    is only declared (``@font-face``, ``@import``) or only stored in a property nothing reads
    (``--font-nanum`` without a ``Text font="nanum"``) draws nothing."""
    properties: dict[str, list[str]] = {}
    fonts: list[str] = []
    for css in css_texts:
        css = _IMPORT_RE.sub("", _FONT_FACE_RE.sub("", _COMMENT_RE.sub("", css)))
        for name, value in _DECLARATION_RE.findall(css):
            if name.startswith("--"):
                properties.setdefault(name, []).append(value)
            else:
                fonts.append(value)
    values, pending, seen = list(fonts), [v for f in fonts for v in _VAR_RE.findall(f)], set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for value in properties.get(name, []):
            values.append(value)
            pending.extend(_VAR_RE.findall(value))
    text = "\n".join(values)
    return frozenset(
        fam.family
        for fam in SHIPPED_FAMILIES
        if re.search(rf"(?<![\w-]){re.escape(fam.family)}(?![\w-])", text, re.I)
    )


def font_file(rel: str) -> Path | None:
    """The shipped font file at ``rel`` (a path under :data:`FONTS_DIR`), or None when ``rel``
    names no font file there (so a page can ask for nothing else)."""
    if Path(rel).suffix not in FONT_MIME or "\\" in rel:
        return None
    root = FONTS_DIR.resolve()
    candidate = (root / rel.lstrip("/")).resolve()
    if root not in candidate.parents or not candidate.is_file():
        return None
    return candidate
