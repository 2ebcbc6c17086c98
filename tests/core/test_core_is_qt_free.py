"""The core must stay importable and usable without Qt (DESIGN.md: Qt-free domain layer).

The import contracts (tests/test_import_contracts.py) check the imports as written; this runs
them: every core module, the sandbox and the CLI load without Qt (the CLI reaches the UI only
inside its PDF command, so only running it shows that ``modu-desktop docs list`` stays Qt-free)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import modu_desktop.core


def test_every_core_module_imports_without_pyside6() -> None:
    core_path = modu_desktop.core.__path__
    names = [m.name for m in pkgutil.walk_packages(core_path, prefix="modu_desktop.core.")]
    assert len(names) > 10
    probe = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "import modu_desktop.cli, modu_desktop.sandbox\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'qasync')))\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
