"""The product ships no benchmark: the wheel and the installer bundle hold ``modu_desktop`` only,
and the benchmark (``bench/`` beside the package) is in neither."""

from __future__ import annotations

import importlib.util
import pkgutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import modu_desktop
from tests.helpers.paths import CHECKOUT

BUILD_WHEEL = "import sys, hatchling.build as backend; print(backend.build_wheel(sys.argv[1]))"


def _bundle_config() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bundle_config", CHECKOUT / "installer" / "bundle_config.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _is_benchmark(module: str) -> bool:
    return "bench" in module.split(".")


def test_the_benchmark_lives_beside_the_package() -> None:
    assert (CHECKOUT / "bench" / "__main__.py").is_file()
    assert not (CHECKOUT / "modu_desktop" / "bench").exists()


def test_the_wheel_holds_the_package_and_no_benchmark(tmp_path: Path) -> None:
    # The build backend of pyproject.toml (what `uv build --wheel` runs), in the project's own
    # environment: nothing is downloaded.
    built = subprocess.run(
        [sys.executable, "-c", BUILD_WHEEL, str(tmp_path)],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = tmp_path / built.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "modu_desktop/__main__.py" in names
    assert "modu_desktop/sandbox/repo/seed_data/docs/01-welcome.md" in names
    tops = {name.split("/", 1)[0] for name in names}
    assert tops == {"modu_desktop", f"modu_desktop-{modu_desktop.__version__}.dist-info"}
    assert [n for n in names if _is_benchmark(n.removesuffix(".py").replace("/", "."))] == []


def test_the_installer_collects_no_benchmark_module() -> None:
    cfg = _bundle_config()
    # What the spec's collect_submodules(..., filter=keep_submodule) gathers from our package.
    ours = [
        info.name
        for info in pkgutil.walk_packages([str(CHECKOUT / cfg.PACKAGE)], prefix=cfg.PACKAGE + ".")
        if cfg.keep_submodule(info.name)
    ]
    assert "modu_desktop.ui.shell.app" in ours and "modu_desktop.sandbox.server" in ours
    assert [m for m in ours if _is_benchmark(m)] == []
    assert [m for m in cfg.HIDDEN_IMPORTS if _is_benchmark(m)] == []
    assert [p for p in cfg.COLLECT_SUBMODULES if _is_benchmark(p)] == []
    # and if an import ever reached it, the analysis leaves the checkout's bench/ out
    assert "bench" in cfg.EXCLUDES
