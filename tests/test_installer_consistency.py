"""The packaging files agree with the package, without building anything.

installer/bundle_config.py holds what the PyInstaller spec uses; the Inno Setup script, the macOS
scripts and the release workflow repeat some of it as text. These tests keep them in step with
`modu_desktop.__version__`, pyproject's `[project.scripts]` and the files on disk.
"""

from __future__ import annotations

import importlib
import importlib.util
import plistlib
import re
import struct
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

import modu_desktop

ROOT = Path(__file__).resolve().parents[1]
INSTALLER = ROOT / "installer"
SPEC = INSTALLER / "modu_desktop.spec"
ISS = INSTALLER / "windows" / "modu-desktop.iss"
MAKE_DMG = INSTALLER / "macos" / "make_dmg.sh"
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
BUILD_LINUX = INSTALLER / "build_linux.sh"


def _load_bundle_config() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bundle_config", INSTALLER / "bundle_config.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cfg = _load_bundle_config()


@pytest.fixture(scope="module")
def pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def iss_text() -> str:
    raw = ISS.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf"), "the .iss must be UTF-8 with a BOM (Korean messages)"
    return raw.decode("utf-8-sig")


@pytest.fixture(scope="module")
def iss_defines(iss_text: str) -> dict[str, str]:
    return dict(re.findall(r'^\s*#define\s+(\w+)\s+"([^"]*)"', iss_text, flags=re.M))


@pytest.fixture(scope="module")
def iss_setup(iss_text: str) -> dict[str, str]:
    section = iss_text.split("[Setup]", 1)[1].split("\n[", 1)[0]
    pairs = re.findall(r"^(\w+)=(.*)$", section, flags=re.M)
    return {k: v.strip() for k, v in pairs}


@pytest.fixture(scope="module")
def workflow() -> str:
    return WORKFLOW.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- version, entry


def test_version_parsed_by_the_build_equals_the_package_version() -> None:
    assert cfg.read_version() == modu_desktop.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+([.\-+]?\w+)*", modu_desktop.__version__)


def test_windows_version_tuple() -> None:
    assert cfg.windows_version_tuple("1.2.3") == (1, 2, 3, 0)
    assert cfg.windows_version_tuple("2.0.1rc1") == (2, 0, 1, 0)
    assert cfg.windows_version_tuple("3") == (3, 0, 0, 0)


def test_exe_name_and_entry_point_match_project_scripts(pyproject: dict[str, object]) -> None:
    project = pyproject["project"]
    assert isinstance(project, dict)
    assert project["scripts"] == {cfg.EXE_NAME: cfg.ENTRY_POINT}
    module, func = cfg.ENTRY_POINT.split(":")
    entry = (INSTALLER / "entry.py").read_text(encoding="utf-8")
    assert f"from {module} import {func}" in entry
    assert f"sys.exit({func}())" in entry
    target = importlib.import_module(module)
    assert callable(getattr(target, func))


def test_bundle_dependency_group_has_pyinstaller(pyproject: dict[str, object]) -> None:
    groups = pyproject["dependency-groups"]
    assert isinstance(groups, dict)
    assert any(str(req).startswith("pyinstaller") for req in groups["bundle"])


# ---------------------------------------------------------------------------------- the spec


def test_spec_is_valid_python_and_uses_bundle_config() -> None:
    text = SPEC.read_text(encoding="utf-8")
    compile(text, str(SPEC), "exec")
    assert "import bundle_config as cfg" in text
    assert "name=cfg.EXE_NAME" in text
    assert "console=False" in text  # windowed
    assert "exclude_binaries=True" in text and "COLLECT(" in text  # one-folder
    assert "bundle_identifier=cfg.BUNDLE_ID" in text
    assert "info_plist=cfg.info_plist(VERSION)" in text
    assert "VERSION = cfg.read_version()" in text
    assert "entry.py" in text
    assert "copy_metadata(dist)" in text and "collect_data_files(cfg.PACKAGE" in text
    assert 'collect_data_files("certifi")' in text


def test_info_plist() -> None:
    plist = cfg.info_plist(modu_desktop.__version__)
    assert plist["CFBundleIdentifier"] == "kr.ac.pusan.modu-desktop"
    assert plist["CFBundleShortVersionString"] == modu_desktop.__version__
    assert plist["CFBundleVersion"] == modu_desktop.__version__
    assert plist["NSHighResolutionCapable"] is True
    assert plist["NSRequiresAquaSystemAppearance"] is False
    assert plist["LSMinimumSystemVersion"] == "11.0"
    assert plist["CFBundleName"] == cfg.APP_NAME
    plistlib.loads(plistlib.dumps(plist))  # serialisable


def test_entitlements_plist_is_valid() -> None:
    ent = plistlib.loads(cfg.ENTITLEMENTS.read_bytes())
    assert ent["com.apple.security.cs.allow-unsigned-executable-memory"] is True


def test_resource_folders_in_the_spec_exist() -> None:
    datas = cfg.resource_datas()
    dests = {dest for _, dest in datas}
    assert "resources/icons" in dests
    for src, dest in datas:
        assert Path(src).exists(), src
        assert dest.startswith("resources/")
    for name in cfg.RESOURCE_DIRS:
        folder = ROOT / "resources" / name
        shipped = [f for f in folder.rglob("*") if f.is_file() and not f.name.startswith(".")]
        if name == "translations":
            shipped = [f for f in shipped if f.suffix in (".qm", ".json")]
            for f in shipped:  # every catalogue ships, at its place
                rel = f.parent.relative_to(ROOT)
                assert (str(f), str(rel)) in datas, f"{f} is not bundled"
        if shipped:
            assert f"resources/{name}" in dests, f"resources/{name} has files but is not bundled"


def test_seed_data_is_collectable() -> None:
    seed = ROOT / cfg.SEED_DATA
    if not seed.exists():
        pytest.skip(f"{cfg.SEED_DATA} does not exist yet")
    files = [f for f in seed.rglob("*") if f.is_file()]
    assert files, "seed_data is empty"
    # collect_data_files() skips Python sources: the seed must not rely on any.
    assert not [f for f in files if f.suffix in (".py", ".pyc")]


def test_hidden_imports_exist_and_keyring_backends_are_listed() -> None:
    for name in ("keyring.backends.Windows", "keyring.backends.macOS", "truststore"):
        assert name in cfg.HIDDEN_IMPORTS
    for name in cfg.HIDDEN_IMPORTS:
        assert importlib.util.find_spec(name) is not None, name
    assert "keyring" in cfg.COPY_METADATA
    assert "modu_desktop" in cfg.COLLECT_SUBMODULES and "dulwich" in cfg.COLLECT_SUBMODULES
    assert not cfg.keep_submodule("dulwich.tests.test_repository")
    assert cfg.keep_submodule("dulwich.repo")


def test_excluded_qt_modules_are_not_used_by_the_app() -> None:
    used: set[str] = set()
    for py in (ROOT / "modu_desktop").rglob("*.py"):
        text = py.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bPySide6\.(Qt\w+)", text))
        used |= {
            m
            for line in re.findall(r"from PySide6 import ([^\n]+)", text)
            for m in re.findall(r"Qt\w+", line)
        }
    excluded = {e.split(".", 1)[1] for e in cfg.EXCLUDES if e.startswith("PySide6.")}
    assert not used & excluded, f"the app imports excluded Qt modules: {sorted(used & excluded)}"
    for required in ("QtCore", "QtGui", "QtWidgets", "QtSvg"):
        assert required not in excluded


@pytest.mark.parametrize(
    ("dest", "kept"),
    [
        ("PySide6/Qt/plugins/imageformats/libqpdf.so", False),
        ("PySide6\\Qt\\plugins\\imageformats\\qpdf.dll", False),
        ("PySide6/Qt/plugins/imageformats/libqsvg.so", True),
        ("PySide6/Qt/plugins/imageformats/qwebp.dll", True),
        ("PySide6/Qt/plugins/platforms/libqoffscreen.so", True),
        ("PySide6/Qt/lib/libQt6Pdf.so.6", False),
        # Qt WebEngine (the preview) links Qt Quick/Qml: their libraries ship.
        ("PySide6/Qt6Quick.dll", True),
        ("PySide6/Qt/resources/qtwebengine_devtools_resources.pak", False),
        ("PySide6/Qt/translations/qtwebengine_locales/ko.pak", True),
        ("PySide6/Qt/translations/qtwebengine_locales/en-US.pak", True),
        ("PySide6/Qt/translations/qtwebengine_locales/de.pak", False),
        ("PySide6/Qt/lib/QtPdf.framework/Versions/A/QtPdf", False),
        ("PySide6/Qt/lib/QtQmlModels.framework/Versions/A/QtQmlModels", True),
        ("PySide6/Qt/lib/QtGui.framework/Versions/A/QtGui", True),
        ("PySide6/Qt/lib/QtSvg.framework/Versions/A/QtSvg", True),
        ("PySide6/Qt/translations/qtbase_ko.qm", True),
        ("PySide6/Qt/translations/qt_en.qm", True),
        ("PySide6/Qt/translations/qtbase_de.qm", False),
        ("PySide6/Qt/translations/qt_zh_CN.qm", False),
        ("resources/translations/modu_de.qm", True),
        ("resources/icons/modu-desktop-256.png", True),
    ],
)
def test_keep_file(dest: str, kept: bool) -> None:
    assert cfg.keep_file(dest) is kept


# ------------------------------------------------------------------------------------- icons


def test_icon_files_exist_and_are_well_formed() -> None:
    for size in (16, 32, 48, 256, 512, 1024):
        png = cfg.ICON_DIR / f"modu-desktop-{size}.png"
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert (width, height) == (size, size), png.name
    assert cfg.ICON_PNG.is_file()

    ico = cfg.ICON_WINDOWS.read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count >= 5
    sizes = set()
    for i in range(count):
        w, _h, _c, _r, _planes, bits, length, offset = struct.unpack(
            "<BBBBHHII", ico[6 + 16 * i : 22 + 16 * i]
        )
        assert bits == 32 and offset + length <= len(ico)
        sizes.add(w or 256)
    assert {16, 32, 48, 256} <= sizes

    icns = cfg.ICON_MACOS.read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    types, pos = set(), 8
    while pos < len(icns):
        ostype = icns[pos : pos + 4].decode("ascii")
        (length,) = struct.unpack(">I", icns[pos + 4 : pos + 8])
        types.add(ostype)
        pos += length
    assert pos == len(icns)
    assert {"ic07", "ic08", "ic09", "ic10"} <= types


# ------------------------------------------------------------------------------ Inno Setup


def test_iss_matches_the_bundle(iss_defines: dict[str, str], iss_setup: dict[str, str]) -> None:
    assert iss_defines["AppName"] == cfg.APP_NAME
    assert iss_defines["AppExeName"] == cfg.EXE_NAME + ".exe"
    assert iss_defines["AppPublisher"] == cfg.PUBLISHER
    # Default SourceDir is the spec's COLLECT output.
    assert iss_defines["SourceDir"] == "..\\..\\dist\\" + cfg.EXE_NAME
    icon = (ISS.parent / iss_setup["SetupIconFile"].replace("\\", "/")).resolve()
    assert icon == cfg.ICON_WINDOWS.resolve()


def test_iss_install_and_uninstall_rules(
    iss_text: str, iss_defines: dict[str, str], iss_setup: dict[str, str]
) -> None:
    assert iss_setup["PrivilegesRequired"] == "lowest"
    assert "PrivilegesRequiredOverridesAllowed" not in iss_setup
    assert iss_setup["DefaultDirName"].startswith("{autopf}")
    assert iss_setup["AppVersion"] == "{#AppVersion}"
    assert iss_setup["AppPublisher"] == "{#AppPublisher}"
    assert iss_setup["UninstallDisplayIcon"] == "{app}\\{#AppExeName}"
    assert re.search(r"#ifndef AppVersion\s*\n\s*#error", iss_text)
    assert re.fullmatch(r"\{\{[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\}", iss_defines["AppId"])
    languages = iss_text.split("[Languages]", 1)[1].split("\n[", 1)[0]
    assert 'Name: "korean"; MessagesFile: "compiler:Languages\\Korean.isl"' in languages
    assert 'Name: "english"; MessagesFile: "compiler:Default.isl"' in languages
    assert '{autoprograms}\\{#AppName}"' in iss_text  # Start menu
    assert re.search(r'Name: "\{autodesktop\}.*Tasks: desktopicon', iss_text)
    assert re.search(r'Name: "desktopicon".*Flags: unchecked', iss_text)  # optional
    # Drafts are kept unless the user says yes (default button: No), never in silent mode.
    assert "MB_DEFBUTTON2" in iss_text and "not UninstallSilent" in iss_text
    assert "DelTree(DataDir" in iss_text
    assert "korean.DeleteUserData=" in iss_text and "english.DeleteUserData=" in iss_text


def test_iss_data_dir_is_the_apps_data_dir(iss_defines: dict[str, str]) -> None:
    try:
        from modu_desktop.core.account import paths
    except ImportError:
        pytest.skip("modu_desktop.core.account.paths not available yet")
    assert iss_defines["DataDirName"] == paths.APP_DIR_NAME
    assert "{localappdata}\\{#DataDirName}" in ISS.read_text(encoding="utf-8-sig")


# -------------------------------------------------------------------------------- macOS dmg


def test_make_dmg_script() -> None:
    text = MAKE_DMG.read_text(encoding="utf-8")
    assert "ln -s /Applications" in text and "hdiutil create" in text
    assert "skipping signing:" in text and "skipping notarisation:" in text
    assert "xcrun notarytool submit" in text and "xcrun stapler staple" in text
    assert "ModuDesktop-${version}-macOS.dmg" in text
    assert "bundle_config.py app-name" in text and "bundle_config.py version" in text


# ------------------------------------------------------------------------------- workflow


def test_release_workflow(workflow: str, iss_setup: dict[str, str]) -> None:
    assert re.search(r"tags:\s*\[\s*\"v\*\"\s*\]", workflow)
    assert "windows-latest" in workflow and "macos-latest" in workflow
    assert 'python-version: "3.11"' in workflow
    assert "uv sync --locked --group bundle" in workflow
    build = "uv run --group bundle pyinstaller --noconfirm --clean installer/modu_desktop.spec"
    assert build in workflow
    # the bundles' self-test, at the paths the spec produces
    assert f'"dist/{cfg.APP_NAME}.app/Contents/MacOS/{cfg.EXE_NAME}" --self-test' in workflow
    assert f'"dist\\{cfg.EXE_NAME}\\{cfg.EXE_NAME}.exe"' in workflow
    assert '"--self-test"' in workflow
    # installers
    assert "installer\\windows\\modu-desktop.iss" in workflow
    assert "/DAppVersion=$env:VERSION" in workflow
    assert "installer/macos/make_dmg.sh" in workflow
    assert "installer/macos/import_certificate.sh" in workflow
    # the uploaded file names are the ones the installers produce
    assert iss_setup["OutputBaseFilename"] == "ModuDesktop-{#AppVersion}-Setup"
    assert "dist/installer/ModuDesktop-*-Setup.exe" in workflow
    assert iss_setup["OutputDir"] == "{#OutputDir}"
    assert "dist/ModuDesktop-*-macOS.dmg" in workflow
    assert "softprops/action-gh-release" in workflow
    # the tag must match the package version
    assert "python installer/bundle_config.py version" in workflow
    assert '"v$version"' in workflow


def test_workflow_secrets_are_optional(workflow: str) -> None:
    text = (INSTALLER / "macos" / "import_certificate.sh").read_text(encoding="utf-8")
    assert "skipping signing:" in text and "exit 0" in text
    for secret in (
        "MACOS_SIGN_IDENTITY",
        "APPLE_ID",
        "APPLE_TEAM_ID",
        "APPLE_APP_PASSWORD",
        "MACOS_CERTIFICATE_P12",
        "MACOS_CERTIFICATE_PASSWORD",
    ):
        assert f"secrets.{secret}" in workflow


def test_linux_build_script_uses_the_same_spec() -> None:
    text = BUILD_LINUX.read_text(encoding="utf-8")
    assert "installer/modu_desktop.spec" in text
    assert "--self-test" in text and "QT_QPA_PLATFORM=offscreen" in text
    assert "du -sh" in text
    if sys.platform != "win32":
        assert BUILD_LINUX.stat().st_mode & 0o111, "build_linux.sh must be executable"


def test_bundle_config_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert cfg._cli(["version"]) == 0
    assert capsys.readouterr().out.strip() == modu_desktop.__version__
    assert cfg._cli(["exe-name"]) == 0
    assert capsys.readouterr().out.strip() == cfg.EXE_NAME


def test_translations_ship_as_fresh_qm_only(tmp_path: Path) -> None:
    """A .ts without an up-to-date .qm is compiled at build time, never shipped stale."""
    if cfg.lrelease_path() is None:
        pytest.skip("lrelease not available")
    tr = tmp_path / "resources" / "translations"
    tr.mkdir(parents=True)
    (tr / "modu_ko.ts").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="ko_KR">'
        "<context><name>X</name><message><source>Open</source><translation>열기</translation>"
        "</message></context></TS>\n",
        encoding="utf-8",
    )
    assert cfg.resource_datas(tmp_path) == []
    compiled = cfg.compile_translations(tmp_path / "build", root=tmp_path)
    assert [Path(src).name for src, _ in compiled] == ["modu_ko.qm"]
    assert compiled[0][1] == "resources/translations"
    assert Path(compiled[0][0]).stat().st_size > 0
    # Once an up-to-date .qm sits next to the .ts, it is shipped as is.
    (tr / "modu_ko.qm").write_bytes(Path(compiled[0][0]).read_bytes())
    assert [Path(src).name for src, _ in cfg.resource_datas(tmp_path)] == ["modu_ko.qm"]
    assert cfg.compile_translations(tmp_path / "build2", root=tmp_path) == []
