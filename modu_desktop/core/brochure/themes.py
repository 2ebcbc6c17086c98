"""The site's colour themes and page layouts: one table (Qt-free).

Everything here is the site's own: theme ids, Korean names and tokens (colours, radii, shadows,
gradients) from ``src/components/BrochureBlocks/ThemeContext.js``, layout ids, Korean names and
widths from ``src/components/LayoutSettings.js``. A test reads both files of the site fixture and
compares them with this table, and the web admin's menus (``static/admin/index.html``) for the
order, which the app's menus follow. The English names and the paper a layout prints on are ours.

The preview reads the repository's own ``ThemeContext.js`` when it has one; these tokens are its
stand-in for a repository without the site's files (the practice sample).
"""

from __future__ import annotations

from dataclasses import dataclass

from modu_desktop.i18n import language

DEFAULT_THEME = "public-blue"  # the site's DocThemeSync: frontMatter.theme || 'public-blue'
DEFAULT_LAYOUT = "cinema"  # the site's DocItem layout: frontMatter.layout || saved || 'cinema'


@dataclass(frozen=True, slots=True)
class Theme:
    key: str
    label_ko: str  # the site's label
    label_en: str
    tokens: dict[str, str]  # the site's tokens, in its order (set as --theme-* variables)

    @property
    def label(self) -> str:
        return self.label_ko if language() == "ko" else self.label_en

    @property
    def primary(self) -> str:
        return self.tokens["primary"]

    @property
    def light(self) -> str:
        return self.tokens["primaryLight"]

    @property
    def accent(self) -> str:
        return self.tokens["accent"]


@dataclass(frozen=True, slots=True)
class Layout:
    key: str
    label_ko: str  # the site's label
    label_en: str
    width_px: int  # the site's page width
    paper: str  # the paper a PDF of it is printed on when the user picks none

    @property
    def label(self) -> str:
        return self.label_ko if language() == "ko" else self.label_en


THEMES: tuple[Theme, ...] = (
    Theme(
        "public-blue",
        "공공 블루 (챕터 1~2)",
        "Public blue",
        {
            "primary": "#1565c0",
            "primaryMid": "#1976d2",
            "primaryLight": "#1e88e5",
            "accent": "#e63312",
            "accentSoft": "#ff5533",
            "teal": "#6fcbae",
            "background": "#f0f4f8",
            "cardBg": "#ffffff",
            "border": "#dce8f8",
            "fontFamily": '"Pretendard", "Noto Sans KR", -apple-system, sans-serif',
            "radius": "8px",
            "radiusCard": "12px",
            "shadow": "0 4px 20px rgba(21, 101, 192, 0.18)",
            "shadowCard": "0 2px 14px rgba(21, 101, 192, 0.10)",
            "gradientPrimary": "linear-gradient(135deg, #1565c0 0%, #1976d2 50%, #1e88e5 100%)",
            "gradientAccent": "linear-gradient(160deg, #e63312 0%, #ff7a00 100%)",
            "heroBg": "linear-gradient(135deg, #1565c0 0%, #1976d2 40%, #1e88e5 70%, #1565c0 100%)",
        },
    ),
    Theme(
        "teal-green",
        "딥 포레스트 (챕터 3)",
        "Deep forest",
        {
            "primary": "#154d30",
            "primaryMid": "#256b4a",
            "primaryLight": "#3dae72",
            "accent": "#b45309",
            "accentSoft": "#d97706",
            "teal": "#1a8a60",
            "background": "#f0f7f3",
            "cardBg": "#ffffff",
            "border": "#b8d9c6",
            "fontFamily": '"Pretendard", "Noto Sans KR", -apple-system, sans-serif',
            "radius": "10px",
            "radiusCard": "14px",
            "shadow": "0 4px 20px rgba(21, 77, 48, 0.12)",
            "shadowCard": "0 2px 12px rgba(21, 77, 48, 0.08)",
            "gradientPrimary": "linear-gradient(160deg, #154d30 0%, #256b4a 100%)",
            "gradientAccent": "linear-gradient(160deg, #b45309 0%, #d97706 100%)",
            "heroBg": "linear-gradient(160deg, #154d30 0%, #256b4a 55%, #3dae72 100%)",
        },
    ),
    Theme(
        "royal-purple",
        "로얄 퍼플 (챕터 5~6)",
        "Royal purple",
        {
            "primary": "#3b0764",
            "primaryMid": "#7c3aed",
            "primaryLight": "#a78bfa",
            "accent": "#ec4899",
            "accentSoft": "#f9a8d4",
            "teal": "#818cf8",
            "background": "#faf5ff",
            "cardBg": "#ffffff",
            "border": "#ddd6fe",
            "fontFamily": '"GmarketSans", "Pretendard", -apple-system, sans-serif',
            "radius": "12px",
            "radiusCard": "16px",
            "shadow": "0 4px 20px rgba(59, 7, 100, 0.12)",
            "shadowCard": "0 2px 14px rgba(59, 7, 100, 0.08)",
            "gradientPrimary": "linear-gradient(160deg, #3b0764 0%, #7c3aed 100%)",
            "gradientAccent": "linear-gradient(160deg, #ec4899 0%, #f9a8d4 100%)",
            "heroBg": "linear-gradient(160deg, #3b0764 0%, #6d28d9 55%, #a78bfa 100%)",
        },
    ),
    Theme(
        "burgundy-gold",
        "버건디 골드 (챕터 7~8)",
        "Burgundy gold",
        {
            "primary": "#4c0519",
            "primaryMid": "#be123c",
            "primaryLight": "#fb7185",
            "accent": "#d97706",
            "accentSoft": "#fbbf24",
            "teal": "#f472b6",
            "background": "#fff1f2",
            "cardBg": "#ffffff",
            "border": "#fecdd3",
            "fontFamily": '"Pretendard", "Noto Sans KR", -apple-system, sans-serif',
            "radius": "8px",
            "radiusCard": "12px",
            "shadow": "0 4px 20px rgba(76, 5, 25, 0.10)",
            "shadowCard": "0 2px 12px rgba(76, 5, 25, 0.08)",
            "gradientPrimary": "linear-gradient(160deg, #4c0519 0%, #be123c 100%)",
            "gradientAccent": "linear-gradient(160deg, #d97706 0%, #fbbf24 100%)",
            "heroBg": "linear-gradient(160deg, #4c0519 0%, #be123c 55%, #fda4af 100%)",
        },
    ),
    Theme(
        "ocean-cyan",
        "딥 스틸 블루 (챕터 4)",
        "Deep steel blue",
        {
            "primary": "#153d63",
            "primaryMid": "#2a6898",
            "primaryLight": "#3d8ec4",
            "accent": "#1b6ca8",
            "accentSoft": "#3d8ec4",
            "teal": "#2a7ab8",
            "background": "#f0f4f9",
            "cardBg": "#ffffff",
            "border": "#c2d4e8",
            "fontFamily": '"Pretendard", "Noto Sans KR", -apple-system, sans-serif',
            "radius": "10px",
            "radiusCard": "14px",
            "shadow": "0 4px 20px rgba(21, 61, 99, 0.12)",
            "shadowCard": "0 2px 12px rgba(21, 61, 99, 0.08)",
            "gradientPrimary": "linear-gradient(160deg, #153d63 0%, #2a6898 100%)",
            "gradientAccent": "linear-gradient(160deg, #1b6ca8 0%, #3d8ec4 100%)",
            "heroBg": "linear-gradient(160deg, #153d63 0%, #2a6898 55%, #3d8ec4 100%)",
        },
    ),
    Theme(
        "startup-gradient",
        "스타트업 다크",
        "Start-up dark",
        {
            "primary": "#6366f1",
            "primaryMid": "#8b5cf6",
            "primaryLight": "#a78bfa",
            "accent": "#f43f5e",
            "accentSoft": "#fb7185",
            "teal": "#2dd4bf",
            "background": "#09090b",
            "cardBg": "#18181b",
            "border": "#27272a",
            "fontFamily": '"GmarketSans", "Pretendard", -apple-system, sans-serif',
            "radius": "24px",
            "radiusCard": "20px",
            "shadow": "0 8px 30px rgba(99, 102, 241, 0.15)",
            "shadowCard": "0 4px 20px rgba(0, 0, 0, 0.3)",
            "gradientPrimary": "linear-gradient(160deg, #6366f1 0%, #d946ef 100%)",
            "gradientAccent": "linear-gradient(160deg, #f43f5e 0%, #fb7185 100%)",
            "heroBg": "linear-gradient(160deg, #0f172a 0%, #1e1b4b 60%, #4c1d95 100%)",
        },
    ),
    Theme(
        "minimal-light",
        "미니멀 라이트",
        "Minimal light",
        {
            "primary": "#18181b",
            "primaryMid": "#3f3f46",
            "primaryLight": "#71717a",
            "accent": "#f59e0b",
            "accentSoft": "#fbbf24",
            "teal": "#10b981",
            "background": "#ffffff",
            "cardBg": "#fafafa",
            "border": "#e4e4e7",
            "fontFamily": '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif',
            "radius": "0px",
            "radiusCard": "0px",
            "shadow": "none",
            "shadowCard": "none",
            "borderCard": "1px solid #e4e4e7",
            "gradientPrimary": "linear-gradient(160deg, #27272a 0%, #71717a 100%)",
            "gradientAccent": "linear-gradient(160deg, #3f3f46 0%, #f59e0b 100%)",
            "heroBg": "linear-gradient(160deg, #fafafa 0%, #eaeaea 100%)",
        },
    ),
)
"""The site's themes, in the order of the web admin's menu."""

LAYOUTS: tuple[Layout, ...] = (
    Layout("cinema", "시네마", "Cinema (wide)", 1860, "A4"),
    Layout("poster", "A3 포스터", "A3 poster", 1560, "A3"),
    Layout("standard", "A4 브로슈어", "A4 brochure", 1260, "A4"),
    Layout("compact", "B5 리플렛", "B5 leaflet", 960, "B5"),
    Layout("slim", "리플렛", "Leaflet", 750, "A4"),
)
"""The site's layouts, in the order of the web admin's menu."""

THEME_BY_KEY: dict[str, Theme] = {t.key: t for t in THEMES}
LAYOUT_BY_KEY: dict[str, Layout] = {la.key: la for la in LAYOUTS}
THEME_KEYS: tuple[str, ...] = tuple(THEME_BY_KEY)
LAYOUT_KEYS: tuple[str, ...] = tuple(LAYOUT_BY_KEY)
