"""Brochure colour themes for the preview (Qt-free).

The palettes follow the brochure site's theme tokens (primary / mid / light / accent …). The site
uses CSS gradients, which a ``QTextBrowser`` cannot draw, so every theme also names the solid colour
used for its hero band and the text colours that read well on it.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_THEME = "public-blue"


@dataclass(frozen=True, slots=True)
class Palette:
    name: str
    primary: str  # darkest brand colour: header bars, headings
    primary_mid: str  # main brand colour: numbers, pills
    primary_light: str  # light brand colour: letters on dark, rules
    accent: str  # highlight colour (badges, [!x] cells, buttons)
    accent_soft: str
    teal: str  # secondary highlight
    background: str  # page background
    card_bg: str  # card background
    border: str  # card border
    text: str  # body text on background/cards
    muted: str  # secondary text
    tint: str  # very light brand tint (zebra rows, soft boxes)
    hero_bg: str  # solid stand-in for the hero gradient
    hero_text: str  # text on hero_bg / primary
    hero_muted: str  # secondary text on hero_bg / primary
    dark_bg: str  # background of "dark" sections (strategy, left-dark split)
    badge_colors: tuple[str, ...]  # cycle for letter badges


THEMES: dict[str, Palette] = {
    "public-blue": Palette(
        name="public-blue",
        primary="#0b1f4e",
        primary_mid="#1757c2",
        primary_light="#4a82e4",
        accent="#e63312",
        accent_soft="#ff5533",
        teal="#6fcbae",
        background="#f0f4f8",
        card_bg="#ffffff",
        border="#c8d8ec",
        text="#1f2a44",
        muted="#5b6b88",
        tint="#e6eef9",
        hero_bg="#123a8a",
        hero_text="#ffffff",
        hero_muted="#d4e2fb",
        dark_bg="#0b1f4e",
        badge_colors=("#1757c2", "#e63312", "#1a8a60", "#7c3aed", "#d97706", "#0b1f4e"),
    ),
    "teal-green": Palette(
        name="teal-green",
        primary="#154d30",
        primary_mid="#256b4a",
        primary_light="#3dae72",
        accent="#b45309",
        accent_soft="#d97706",
        teal="#1a8a60",
        background="#f0f7f3",
        card_bg="#ffffff",
        border="#b8d9c6",
        text="#183a2a",
        muted="#4f6f5f",
        tint="#e3f1e9",
        hero_bg="#1d5c3c",
        hero_text="#ffffff",
        hero_muted="#d2eddf",
        dark_bg="#154d30",
        badge_colors=("#256b4a", "#b45309", "#1a8a60", "#3dae72", "#154d30", "#d97706"),
    ),
    "royal-purple": Palette(
        name="royal-purple",
        primary="#3b0764",
        primary_mid="#7c3aed",
        primary_light="#a78bfa",
        accent="#ec4899",
        accent_soft="#f9a8d4",
        teal="#818cf8",
        background="#faf5ff",
        card_bg="#ffffff",
        border="#ddd6fe",
        text="#2e1065",
        muted="#6b5b8a",
        tint="#f1e8ff",
        hero_bg="#5b21b6",
        hero_text="#ffffff",
        hero_muted="#e9ddff",
        dark_bg="#3b0764",
        badge_colors=("#7c3aed", "#ec4899", "#818cf8", "#3b0764", "#a78bfa", "#db2777"),
    ),
    "burgundy-gold": Palette(
        name="burgundy-gold",
        primary="#4c0519",
        primary_mid="#be123c",
        primary_light="#fb7185",
        accent="#d97706",
        accent_soft="#fbbf24",
        teal="#f472b6",
        background="#fff1f2",
        card_bg="#ffffff",
        border="#fecdd3",
        text="#3f0a19",
        muted="#7a4a55",
        tint="#ffe4e8",
        hero_bg="#881337",
        hero_text="#ffffff",
        hero_muted="#ffdce3",
        dark_bg="#4c0519",
        badge_colors=("#be123c", "#d97706", "#4c0519", "#f472b6", "#fb7185", "#b45309"),
    ),
    "ocean-cyan": Palette(
        name="ocean-cyan",
        primary="#153d63",
        primary_mid="#2a6898",
        primary_light="#3d8ec4",
        accent="#1b6ca8",
        accent_soft="#3d8ec4",
        teal="#2a7ab8",
        background="#f0f4f9",
        card_bg="#ffffff",
        border="#c2d4e8",
        text="#142a40",
        muted="#52667c",
        tint="#e2ecf6",
        hero_bg="#1f527f",
        hero_text="#ffffff",
        hero_muted="#d3e4f3",
        dark_bg="#153d63",
        badge_colors=("#2a6898", "#1b6ca8", "#153d63", "#3d8ec4", "#2a7ab8", "#0e7490"),
    ),
    "startup-gradient": Palette(
        name="startup-gradient",
        primary="#6366f1",
        primary_mid="#8b5cf6",
        primary_light="#a78bfa",
        accent="#f43f5e",
        accent_soft="#fb7185",
        teal="#2dd4bf",
        background="#09090b",
        card_bg="#18181b",
        border="#27272a",
        text="#e4e4e7",
        muted="#a1a1aa",
        tint="#1f1f24",
        hero_bg="#1e1b4b",
        hero_text="#ffffff",
        hero_muted="#c7c4f5",
        dark_bg="#0f172a",
        badge_colors=("#6366f1", "#f43f5e", "#2dd4bf", "#8b5cf6", "#d946ef", "#fb7185"),
    ),
    "minimal-light": Palette(
        name="minimal-light",
        primary="#18181b",
        primary_mid="#3f3f46",
        primary_light="#71717a",
        accent="#f59e0b",
        accent_soft="#fbbf24",
        teal="#10b981",
        background="#ffffff",
        card_bg="#fafafa",
        border="#e4e4e7",
        text="#18181b",
        muted="#71717a",
        tint="#f4f4f5",
        hero_bg="#f4f4f5",
        hero_text="#18181b",
        hero_muted="#52525b",
        dark_bg="#27272a",
        badge_colors=("#18181b", "#f59e0b", "#10b981", "#3f3f46", "#71717a", "#b45309"),
    ),
}

THEME_NAMES: tuple[str, ...] = tuple(THEMES)


def get_palette(name: str | None) -> Palette:
    """The palette for ``name``; unknown or empty names fall back to the default theme."""
    key = (name or "").strip().strip("\"'").lower()
    return THEMES.get(key, THEMES[DEFAULT_THEME])
