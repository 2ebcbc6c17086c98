"""``modu-desktop export-pdf DOC_ID --out FILE [--paper A4|A3|B5]``: a document as PDF.

Same connection flags as ``docs list`` (``--api-url``, ``--repo``, ``--branch``; token from
``MODU_TOKEN`` or the keyring). The document, the site's stylesheets and palettes and the
pictures it shows are read through the git database; the page is printed by Qt WebEngine with
the site's print rules (offscreen, no window). Paper: ``--paper``, else the document's layout
(``compact`` → B5, ``poster`` → A3, otherwise A4). Korean text stays text in the PDF.

Exit status: 0 written, 1 failure (one line on stderr, never the token), 2 usage error.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from modu_desktop import i18n
from modu_desktop.cli.common import (
    CliFailure,
    Parser,
    conn_parser,
    data_dir,
    doc_id_arg,
    load_token,
)
from modu_desktop.core.github.errors import GitHubError

PAPERS = ("A4", "A3", "B5")


def build_parser() -> argparse.ArgumentParser:
    def paper(text: str) -> str:
        value = text.upper()
        if value not in PAPERS:
            raise argparse.ArgumentTypeError(f"choose one of {', '.join(PAPERS)}")
        return value

    p = Parser(
        prog="modu-desktop export-pdf",
        description="Save a document as PDF, as the site prints it.",
        parents=[conn_parser()],
    )
    p.add_argument("doc_id", metavar="DOC_ID", type=doc_id_arg, help="e.g. 99-template")
    p.add_argument("--out", required=True, type=Path, help="the PDF file to write")
    p.add_argument("--paper", type=paper, help="A4, A3 or B5 (default: from the layout)")
    return p


async def fetch(args: argparse.Namespace, token: str, pictures: Path) -> tuple[str, str, Any]:
    """(document text, its path, site style); its repository pictures land in ``pictures``."""
    from modu_desktop.core.account.paths import app_paths
    from modu_desktop.core.documents.store import DocumentStore
    from modu_desktop.core.github.client import GitHubClient, RepoRef
    from modu_desktop.core.pictures.mirror import fill_folder
    from modu_desktop.core.preview import load_site_style

    try:
        repo = RepoRef.parse(args.repo, branch=args.branch)
    except Exception as exc:
        raise CliFailure(f"--repo must be OWNER/NAME ({exc})") from None
    try:
        cache: Path | str = app_paths().ensure().blob_cache_dir
    except OSError:
        cache = pictures / ".blobs"
    async with GitHubClient(args.api_url, token, repo) as client:
        store = DocumentStore(client, cache, branch=repo.branch)
        doc = await store.load(args.doc_id)
        style = await load_site_style(store)
        await fill_folder(store, pictures, doc.text, doc.path)
        return doc.text, doc.path, style


def export(args: argparse.Namespace, token: str) -> None:
    with tempfile.TemporaryDirectory(prefix="modu-pdf-") as tmp:
        pictures = Path(tmp)
        with data_dir(args.data_dir):
            text, doc_path, style = asyncio.run(fetch(args, token, pictures))
        if not os.environ.get("QT_QPA_PLATFORM"):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a command line tool shows no window
        from PySide6.QtWidgets import QApplication

        from modu_desktop.ui.shell.qt_setup import prepare_application

        prepare_application()
        app = QApplication.instance() or QApplication(["modu-desktop"])
        from modu_desktop.core.preview.images import checkout_image_resolver
        from modu_desktop.ui.preview.pdf import export_pdf_blocking

        out = args.out.resolve()
        out.parent.mkdir(parents=True, exist_ok=True)
        ok = export_pdf_blocking(
            text,
            out,
            style=style,
            paper=args.paper,
            image_resolver=checkout_image_resolver(pictures, doc_path),
        )
        del app
        if not ok:
            raise CliFailure(f"the PDF could not be written to {out}")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    i18n.set_language("en")  # the command speaks English
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    token: str | None = None
    try:
        token = load_token(args.api_url)
        export(args, token)
    except CliFailure as exc:
        message = str(exc)
    except KeyboardInterrupt:
        message = "interrupted"
    except Exception as exc:
        if isinstance(exc, GitHubError):
            message = exc.user_message()
        else:
            message = f"{type(exc).__name__}: {exc}"
    else:
        print(f"wrote {args.out}")
        return 0
    message = " ".join(message.split())
    if token:
        message = message.replace(token, "***")
    sys.stderr.write(f"error: {message or 'unknown error'}\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
