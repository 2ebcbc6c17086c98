"""Entry point: `modu-desktop [sandbox|docs|locks|images|export-pdf|export-html|--self-test|GUI
flags…]`."""

from __future__ import annotations

import sys

ADMIN_COMMANDS = ("docs", "locks", "images")


def command_word(args: list[str]) -> str | None:
    """The command the arguments name: the first one that is not ``--lang X`` (the admin
    commands take the language before the command too: ``modu-desktop --lang ko docs list``)."""
    i = 0
    while i < len(args):
        if args[i] == "--lang":
            i += 2
        elif args[i].startswith("--lang="):
            i += 1
        else:
            return args[i]
    return None


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if command_word(args) in ADMIN_COMMANDS:
        from modu_desktop.cli import main as admin_main

        return admin_main(args)
    if args and args[0] == "sandbox":
        from modu_desktop.sandbox.cli import main as sandbox_main

        return sandbox_main(args[1:])
    if args and args[0] == "export-pdf":
        from modu_desktop.cli.pdf import main as export_pdf_main

        return export_pdf_main(args[1:])
    if args and args[0] == "export-html":
        from modu_desktop.cli.html import main as export_html_main

        return export_html_main(args[1:])
    if "--self-test" in args:
        from modu_desktop.selftest import main as selftest_main

        return selftest_main([a for a in args if a != "--self-test"])
    from modu_desktop.ui.shell.app import main as gui_main

    return gui_main(args)


if __name__ == "__main__":
    sys.exit(main())
