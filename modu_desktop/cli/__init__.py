"""The admin CLI (``modu-desktop docs|locks|images …``): ``commands`` holds the parser, the
connection and the read commands, ``ops`` the writing commands on ``core.ops``."""

from modu_desktop.cli.commands import build_parser, main

__all__ = ["build_parser", "main"]
