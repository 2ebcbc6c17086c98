"""``modu-desktop export-html FILE --out PAGE.html [--site DIR] [--no-font]``.

A local Markdown file as one self-contained HTML page, exactly as the preview shows it, for
mailing to a colleague: the site's stylesheets and palettes when ``--site`` names a checkout of
the site (else the preview's own), pictures inlined (``/img/…`` from ``DIR/static``, relative
ones beside the file), the fonts the preview draws the page in embedded unless ``--no-font``
(the families its stylesheets use; of Noto Sans KR and Nanum Gothic only the slices holding
its characters), no script, and nothing loaded from anywhere else. No network, no token, no
window.

Exit status: 0 written, 1 failure (one line on stderr), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from modu_desktop import i18n


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="modu-desktop export-html",
        description="Save a local Markdown file as one HTML page, as the preview shows it.",
    )
    p.add_argument("file", metavar="FILE", type=Path, help="the Markdown file")
    p.add_argument("--out", required=True, type=Path, help="the HTML page to write")
    p.add_argument("--site", type=Path, help="a checkout of the site (its styles and pictures)")
    p.add_argument("--no-font", action="store_true", help="leave the fonts out (smaller page)")
    return p


def export(args: argparse.Namespace) -> Path:
    from modu_desktop.core.atomic import write_atomic
    from modu_desktop.core.preview import style_from_checkout
    from modu_desktop.core.preview.export import local_picture_resolver, standalone_page

    try:
        text = args.file.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise ValueError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{args.file} is not UTF-8 text") from None
    style = None
    static = None
    if args.site is not None:
        if not args.site.is_dir():
            raise ValueError(f"--site {args.site} is not a folder")
        style = style_from_checkout(args.site)
        static = args.site / "static"
    page = standalone_page(
        text,
        style=style,
        image_resolver=local_picture_resolver(args.file.resolve().parent, static),
        embed_font=not args.no_font,
    )
    out = args.out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, page.encode("utf-8"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    i18n.set_language("en")  # the command speaks English
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    try:
        out = export(args)
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"error: {' '.join(str(exc).split())}\n")
        return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
