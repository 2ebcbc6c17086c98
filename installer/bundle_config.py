"""Everything the PyInstaller spec needs to know about the app, in plain Python.

Kept out of the spec so that `tests/test_installer_consistency.py` can check the very values the
build uses without running PyInstaller. No PyInstaller or PySide6 import at module level.
"""

from __future__ import annotations

import ast
import fnmatch
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "modu_desktop"

APP_NAME = "Modu Desktop"  # .app name, Start-menu name, window titles
EXE_NAME = "modu-desktop"  # == the [project.scripts] key in pyproject.toml
ENTRY_POINT = "modu_desktop.__main__:main"  # == the [project.scripts] value
BUNDLE_ID = "kr.ac.pusan.modu-desktop"
PUBLISHER = "Pusan National University (PNU-Modu)"
MIN_MACOS = "11.0"

ICON_DIR = ROOT / "resources" / "icons"
ICON_WINDOWS = ICON_DIR / "modu-desktop.ico"
ICON_MACOS = ICON_DIR / "modu-desktop.icns"
ICON_PNG = ICON_DIR / "modu-desktop-256.png"

# resources/<name> folders shipped in the bundle as resources/<name> (next to sys._MEIPASS).
RESOURCE_DIRS = ("icons", "styles", "translations", "preview", "blocks")
# Package data shipped as-is (the sandbox's practice brochure); everything else non-.py under
# the package is collected too (collect_data_files), this one is checked by the self-test.
SEED_DATA = Path(PACKAGE) / "sandbox" / "repo" / "seed_data"

# Modules the app reaches only through importlib / entry points, or only on another OS.
HIDDEN_IMPORTS = (
    "keyring.backends.Windows",  # Windows Credential Manager
    "keyring.backends.macOS",  # macOS Keychain
    "keyring.backends.SecretService",
    "keyring.backends.chainer",
    "keyring.backends.fail",
    "truststore",
    "platformdirs.windows",
    "platformdirs.macos",
    "platformdirs.unix",
)
# Packages whose whole submodule tree is bundled (dynamic imports inside them).
COLLECT_SUBMODULES = ("modu_desktop", "keyring.backends", "dulwich")
# …minus these prefixes (tests and optional integrations that pull in absent packages).
SUBMODULE_EXCLUDES = (
    "dulwich.tests",
    "dulwich.contrib",
    "dulwich.cloud",
    "dulwich.aiohttp",
    "dulwich.cli",
    "dulwich.web",
    "dulwich.lfs_server",
)
# Distributions whose metadata must travel (entry points: keyring backends).
COPY_METADATA = ("keyring", "dulwich", "httpx", "truststore", "modu-desktop")

# Big Qt modules and dev tools the app never uses (keep in sync with what ui/ imports; the
# self-test imports modu_desktop.ui.shell.app inside the bundle, so a wrong exclusion fails there).
EXCLUDES = (
    "tkinter",
    "_tkinter",
    "pytest",
    "_pytest",
    "pytestqt",
    "mypy",
    "ruff",
    "PyInstaller",
    "bench",  # the benchmark beside the package in the checkout: a tool, never shipped
    "setuptools",
    # dev-only (scripts/preview_fidelity.py): pygments would pull PIL and numpy in (~55 MB)
    "PIL",
    "numpy",
    "scipy",
    "skimage",
    "PySide6.QtQml",
    "PySide6.QtQuick",
    "PySide6.QtQuick3D",
    "PySide6.QtQuickControls2",
    "PySide6.QtQuickWidgets",
    "PySide6.QtQuickTest",
    "PySide6.QtPdf",
    "PySide6.QtPdfWidgets",
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
    "PySide6.QtDesigner",
    "PySide6.QtUiTools",
    "PySide6.QtHelp",
    "PySide6.QtSql",
    "PySide6.QtTest",
    "PySide6.QtConcurrent",
    "PySide6.QtXml",
    "PySide6.QtWebEngineQuick",
    "PySide6.QtWebSockets",
    "PySide6.QtMultimedia",
    "PySide6.QtMultimediaWidgets",
    "PySide6.QtCharts",
    "PySide6.QtDataVisualization",
    "PySide6.QtGraphs",
    "PySide6.QtBluetooth",
    "PySide6.QtNfc",
    "PySide6.QtPositioning",
    "PySide6.QtLocation",
    "PySide6.QtSensors",
    "PySide6.QtSerialPort",
    "PySide6.QtSerialBus",
    "PySide6.QtRemoteObjects",
    "PySide6.QtScxml",
    "PySide6.QtStateMachine",
    "PySide6.QtTextToSpeech",
    "PySide6.QtSpatialAudio",
    "PySide6.QtHttpServer",
    "PySide6.Qt3DCore",
    "PySide6.Qt3DRender",
    "PySide6.Qt3DInput",
    "PySide6.Qt3DLogic",
    "PySide6.Qt3DAnimation",
    "PySide6.Qt3DExtras",
)

# Files dropped from the collected binaries/datas (matched against the bundle-relative path,
# '/'-separated, case-insensitive). Qt plugins we do not use that would drag in whole Qt libraries.
DROP_PATTERNS = (
    "*/plugins/imageformats/*qpdf*",  # PDF-as-image: pulls in QtPdf (~10 MB)
    "*/plugins/designer/*",
    "*/plugins/qmltooling/*",
    "*/plugins/sqldrivers/*",
    "*/plugins/vectorimageformats/*",  # Lottie: pulls in QtQml/QtQuick
    "*/plugins/platformthemes/*gtk3*",  # Linux: would mix bundled cairo/gdk with the host's GTK
    "*qt6pdf*",
    # Qt WebEngine (the preview) links libQt6Qml/Quick/QuickWidgets: their libraries stay; their
    # Python modules stay excluded above.
    "*/qtwebengine_devtools_resources.pak",  # developer tools, never opened (11 MB)
    "*qt6designer*",
    "*qt6virtualkeyboard*",
    # the same libraries as macOS frameworks (PySide6/Qt/lib/QtPdf.framework/...)
    "*/qtpdf.framework/*",
    "*/qtdesigner*.framework/*",
    "*/qtvirtualkeyboard*.framework/*",
)
# Qt's own translations: keep only the languages the app speaks (~2 MB saved).
QT_TRANSLATION_LANGS = ("ko", "en")
# Chromium's locale packs of Qt WebEngine (qtwebengine_locales/*.pak): the same two (~42 MB saved).
WEBENGINE_LOCALES = ("ko", "en-US")


def read_version(root: Path = ROOT) -> str:
    """`__version__` from modu_desktop/__init__.py, parsed (never imported)."""
    tree = ast.parse((root / PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == "__version__":
                    value = node.value
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        return value.value
    raise RuntimeError(f"__version__ not found in {root / PACKAGE / '__init__.py'}")


def windows_version_tuple(version: str) -> tuple[int, int, int, int]:
    """'1.2.3' / '1.2.3rc1' -> (1, 2, 3, 0) for the Windows VERSIONINFO resource."""
    parts: list[int] = []
    for piece in version.split(".")[:4]:
        digits = ""
        for ch in piece:
            if not ch.isdigit():
                break
            digits += ch
        parts.append(int(digits or 0))
    while len(parts) < 4:
        parts.append(0)
    return (parts[0], parts[1], parts[2], parts[3])


def info_plist(version: str) -> dict[str, object]:
    """Info.plist entries for the macOS .app (PyInstaller adds the executable/icon keys)."""
    return {
        "CFBundleName": APP_NAME,
        "CFBundleDisplayName": APP_NAME,
        "CFBundleIdentifier": BUNDLE_ID,
        "CFBundleShortVersionString": version,
        "CFBundleVersion": version,
        "CFBundleDevelopmentRegion": "ko",
        "CFBundleLocalizations": ["ko", "en"],
        "CFBundlePackageType": "APPL",
        "LSApplicationCategoryType": "public.app-category.productivity",
        "LSMinimumSystemVersion": MIN_MACOS,
        "NSHighResolutionCapable": True,
        "NSRequiresAquaSystemAppearance": False,  # follow the system's dark mode
        "NSHumanReadableCopyright": f"© {PUBLISHER}",
    }


def resource_datas(root: Path = ROOT) -> list[tuple[str, str]]:
    """(source, bundle destination) pairs for resources/; translations ship as the JSON
    catalogues of ``modu_desktop.i18n`` (``ko.json``, ``ko/*.json``) and fresh .qm only."""
    out: list[tuple[str, str]] = []
    for name in RESOURCE_DIRS:
        src = root / "resources" / name
        if not src.is_dir():
            continue
        if name == "translations":
            # Stale .qm files (older than their .ts) are left out: compile_translations() makes
            # fresh ones into the build folder instead.
            fresh = [
                qm for qm in sorted(src.glob("*.qm")) if not _needs_compile(qm.with_suffix(".ts"))
            ]
            out += [(str(qm), "resources/translations") for qm in fresh]
            out += [(str(js), "resources/translations") for js in sorted(src.glob("*.json"))]
            out += [(str(js), "resources/translations/ko") for js in sorted(src.glob("ko/*.json"))]
            continue
        files = [f for f in src.rglob("*") if f.is_file() and not f.name.startswith(".")]
        if files:
            out.append((str(src), f"resources/{name}"))
    return out


def _needs_compile(ts: Path) -> bool:
    """True if `ts` exists and has no .qm next to it at least as new as itself."""
    if not ts.is_file():
        return False
    qm = ts.with_suffix(".qm")
    return not qm.is_file() or qm.stat().st_mtime < ts.stat().st_mtime


def lrelease_path() -> Path | None:
    """Qt's lrelease shipped inside PySide6 (pyside6-essentials has it)."""
    found = shutil.which("pyside6-lrelease")
    if found:
        return Path(found)
    try:
        import PySide6
    except ImportError:
        return None
    base = Path(PySide6.__file__).parent
    for cand in (base / "lrelease", base / "lrelease.exe", base / "Qt" / "libexec" / "lrelease"):
        if cand.is_file():
            return cand
    return None


def compile_translations(out_dir: Path, root: Path = ROOT) -> list[tuple[str, str]]:
    """Compile resources/translations/*.ts that have no up-to-date .qm into out_dir.

    .qm files are build products (.gitignore); the bundle must not depend on someone having run
    lrelease by hand. Returns extra (source, destination) datas.
    """
    src = root / "resources" / "translations"
    if not src.is_dir():
        return []
    todo = [ts for ts in sorted(src.glob("*.ts")) if _needs_compile(ts)]
    if not todo:
        return []
    tool = lrelease_path()
    if tool is None:
        raise RuntimeError("lrelease not found: cannot compile " + ", ".join(t.name for t in todo))
    out_dir.mkdir(parents=True, exist_ok=True)
    datas = []
    for ts in todo:
        qm = out_dir / ts.with_suffix(".qm").name
        subprocess.run([str(tool), "-silent", str(ts), "-qm", str(qm)], check=True)
        datas.append((str(qm), "resources/translations"))
    return datas


def keep_submodule(name: str) -> bool:
    return not any(name == p or name.startswith(p + ".") for p in SUBMODULE_EXCLUDES)


def keep_file(dest: str) -> bool:
    """False for collected files the bundle does not need (see DROP_PATTERNS)."""
    d = dest.replace("\\", "/").lower()
    if any(fnmatch.fnmatch(d, pat) or fnmatch.fnmatch("/" + d, pat) for pat in DROP_PATTERNS):
        return False
    if "/translations/" in "/" + d and d.endswith(".qm") and "resources/translations" not in d:
        # Qt's own catalogues: qtbase_ko.qm, qt_en.qm … keep only the languages we speak.
        stem = d.rsplit("/", 1)[-1][: -len(".qm")]
        lang = stem.split("_", 1)[1] if "_" in stem else ""
        return lang.split("_")[0] in QT_TRANSLATION_LANGS
    if "/qtwebengine_locales/" in "/" + d and d.endswith(".pak"):
        return d.rsplit("/", 1)[-1][: -len(".pak")] in {x.lower() for x in WEBENGINE_LOCALES}
    return True


def target_platform() -> str:
    if sys.platform.startswith("win"):
        return "windows"
    if sys.platform == "darwin":
        return "macos"
    return "linux"


def macos_sign_identity() -> str | None:
    """Developer ID identity for PyInstaller's codesign (hardened runtime), from the environment."""
    import os

    return os.environ.get("MACOS_SIGN_IDENTITY") or None


ENTITLEMENTS = ROOT / "installer" / "macos" / "entitlements.plist"


def _cli(argv: list[str]) -> int:
    """`python installer/bundle_config.py version|windows-version|exe-name|app-name` for scripts."""
    what = argv[0] if argv else "version"
    version = read_version()
    values = {
        "version": version,
        "windows-version": ".".join(str(n) for n in windows_version_tuple(version)),
        "exe-name": EXE_NAME,
        "app-name": APP_NAME,
        "bundle-id": BUNDLE_ID,
    }
    if what not in values:
        print(f"unknown key {what!r}; one of {', '.join(values)}", file=sys.stderr)
        return 2
    print(values[what])
    return 0


if __name__ == "__main__":
    sys.exit(_cli(sys.argv[1:]))
