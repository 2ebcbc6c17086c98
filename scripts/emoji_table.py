"""Write ``resources/preview/emoji.json``: the emoji shortcodes the site replaces.

The site's build runs remark-emoji, which looks names up with node-emoji 2.2, whose table is
emojilib 2.4's ``emojis.json`` (MIT, Mu-An Chiou): ``:tada:`` → 🎉. This copies that table
(name → character) from an installed copy of the site:

    uv run python scripts/emoji_table.py SITE_DIR   # SITE_DIR: a checkout with node_modules
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "resources" / "preview" / "emoji.json"


def main(site: Path) -> None:
    lib = json.loads((site / "node_modules" / "emojilib" / "emojis.json").read_text("utf-8"))
    table = {name: entry["char"] for name, entry in lib.items() if entry.get("char")}
    OUT.write_text(
        json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n",
        "utf-8",
    )
    print(f"{len(table)} shortcodes -> {OUT}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
