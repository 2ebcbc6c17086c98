"""The app's log file: rotating, in the platform's log folder, never holding a token.

``start_logging(log_dir)`` is called once at start-up. It writes INFO and above (DEBUG with
``--debug``) to ``{log_dir}/modu-desktop.log``, rotated at 1 MB with four older files kept, every
line passed through :func:`~modu_desktop.core.support.redact.redact` (tokens, credentials, the
home folder). A console handler is added only when there is a console: the windowed Windows
build has ``sys.stderr = None``, and logging must not depend on it.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from modu_desktop.core.github.types import known_secrets
from modu_desktop.core.support.redact import redact

LOG_NAME = "modu-desktop.log"
MAX_BYTES = 1024 * 1024
BACKUPS = 4
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_HANDLER_NAME = "modu-desktop-file"


class RedactingFormatter(logging.Formatter):
    """Formats as usual (traceback included), then takes secrets out of the whole text."""

    def __init__(self, fmt: str = FORMAT, secrets: Callable[[], Iterable[str]] | None = None):
        super().__init__(fmt)
        self._secrets = secrets or (lambda: ())

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), secrets=self._secrets())


def log_files(log_dir: Path) -> list[Path]:
    """The log file and its rotated copies, newest first."""
    current = log_dir / LOG_NAME
    older = [log_dir / f"{LOG_NAME}.{n}" for n in range(1, BACKUPS + 1)]
    return [p for p in [current, *older] if p.is_file()]


def start_logging(
    log_dir: Path, *, debug: bool = False, console: TextIO | None | bool = True
) -> Path | None:
    """Send the app's log to ``log_dir`` (and to the console when there is one). Returns the log
    file, or None when the folder cannot be written (the app runs on without a file)."""
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if debug else logging.INFO)
    for h in list(root.handlers):
        if h.get_name() == _HANDLER_NAME:
            root.removeHandler(h)
            h.close()
    file = log_dir / LOG_NAME
    path: Path | None = file
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
            file, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True
        )
    except OSError:
        path = None
        handler = logging.NullHandler()
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(RedactingFormatter(secrets=known_secrets))
    handler.setLevel(logging.DEBUG if debug else logging.INFO)
    root.addHandler(handler)
    stream = sys.stderr if console is True else (console or None)
    if stream is not None and not any(
        isinstance(h, logging.StreamHandler) and getattr(h, "stream", None) is stream
        for h in root.handlers
    ):
        out = logging.StreamHandler(stream)
        out.setFormatter(RedactingFormatter(secrets=known_secrets))
        out.setLevel(logging.DEBUG if debug else logging.WARNING)
        root.addHandler(out)
    for noisy in ("httpx", "httpcore", "asyncio", "dulwich"):
        logging.getLogger(noisy).setLevel(logging.DEBUG if debug else logging.WARNING)
    return path
