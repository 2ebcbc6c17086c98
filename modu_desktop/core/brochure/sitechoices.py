# ruff: noqa: E501
"""The site's colour themes and page layouts by the names its own menus show (Qt-free).

Korean names, colours and widths are the site's: ``ThemeContext.js`` (``label``, ``primary``,
``primaryLight``, ``accent``) and ``LayoutSettings.js`` (``label``, ``width``). A test reads both
files of the site fixture and checks these tables against them.
"""

from __future__ import annotations

from dataclasses import dataclass

from modu_desktop.i18n import language

# fmt: off


@dataclass(frozen=True, slots=True)
class ThemeChoice:
    key: str
    label_ko: str
    label_en: str
    primary: str
    light: str
    accent: str

    @property
    def label(self) -> str:
        return self.label_ko if language() == "ko" else self.label_en


@dataclass(frozen=True, slots=True)
class LayoutChoice:
    key: str
    label_ko: str
    label_en: str
    width_px: int

    @property
    def label(self) -> str:
        return self.label_ko if language() == "ko" else self.label_en


THEME_CHOICES: tuple[ThemeChoice, ...] = (
    ThemeChoice("public-blue", "공공 블루 (챕터 1~2)", "Public blue", "#1565c0", "#1e88e5", "#e63312"),
    ThemeChoice("teal-green", "딥 포레스트 (챕터 3)", "Deep forest", "#154d30", "#3dae72", "#b45309"),
    ThemeChoice("royal-purple", "로얄 퍼플 (챕터 5~6)", "Royal purple", "#3b0764", "#a78bfa", "#ec4899"),
    ThemeChoice("burgundy-gold", "버건디 골드 (챕터 7~8)", "Burgundy gold", "#4c0519", "#fb7185", "#d97706"),
    ThemeChoice("startup-gradient", "스타트업 다크", "Start-up dark", "#6366f1", "#a78bfa", "#f43f5e"),
    ThemeChoice("minimal-light", "미니멀 라이트", "Minimal light", "#18181b", "#71717a", "#f59e0b"),
    ThemeChoice("ocean-cyan", "딥 스틸 블루 (챕터 4)", "Deep steel blue", "#153d63", "#3d8ec4", "#1b6ca8"),
)

LAYOUT_CHOICES: tuple[LayoutChoice, ...] = (
    LayoutChoice("slim", "리플렛", "Leaflet", 750),
    LayoutChoice("compact", "B5 리플렛", "B5 leaflet", 960),
    LayoutChoice("standard", "A4 브로슈어", "A4 brochure", 1260),
    LayoutChoice("poster", "A3 포스터", "A3 poster", 1560),
    LayoutChoice("cinema", "시네마", "Cinema (wide)", 1860),
)

# fmt: on

THEME_BY_KEY = {t.key: t for t in THEME_CHOICES}
LAYOUT_BY_KEY = {la.key: la for la in LAYOUT_CHOICES}
