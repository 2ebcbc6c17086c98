"""Where Modu Desktop keeps its files (Qt-free).

By default the per-user directories of the OS (platformdirs). One override, ``--data-dir DIR``
(or ``MODU_DATA_DIR``), puts everything — config, cache, drafts, spool, the practice sandbox —
under a single directory, which tests and portable installs use.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

APP_DIR_NAME = "modu-desktop"
DATA_DIR_ENV = "MODU_DATA_DIR"


@dataclass(frozen=True)
class AppPaths:
    config_dir: Path
    data_dir: Path
    cache_dir: Path
    log_dir: Path | None = None  # None: a folder ``logs`` in the data folder
    reports_dir: Path | None = None  # where 문제 보고 puts its zip (None: ``reports`` in data)

    @property
    def logs(self) -> Path:
        """The log folder (the platform's log folder unless ``--data-dir`` says otherwise)."""
        return self.log_dir if self.log_dir is not None else self.data_dir / "logs"

    @property
    def reports(self) -> Path:
        """Where problem reports go: the Downloads folder, or ``reports`` under ``--data-dir``."""
        return self.reports_dir if self.reports_dir is not None else self.data_dir / "reports"

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def drafts_dir(self) -> Path:
        return self.data_dir / "drafts"

    @property
    def sandbox_repo_dir(self) -> Path:
        """The practice repository of ``--sandbox`` (kept so practice work survives restarts)."""
        return self.data_dir / "practice-repo"

    @property
    def blob_cache_dir(self) -> Path:
        return self.cache_dir / "blobs"

    def ensure(self) -> AppPaths:
        for d in (self.config_dir, self.data_dir, self.cache_dir):
            d.mkdir(parents=True, exist_ok=True)
        return self


def app_paths(data_dir: str | Path | None = None) -> AppPaths:
    """Directories for this user. ``data_dir`` (or ``$MODU_DATA_DIR``) overrides all of them."""
    override = data_dir if data_dir is not None else os.environ.get(DATA_DIR_ENV) or None
    if override is not None:
        root = Path(override).expanduser().resolve()
        return AppPaths(
            config_dir=root / "config",
            data_dir=root / "data",
            cache_dir=root / "cache",
            log_dir=root / "logs",
            reports_dir=root / "reports",
        )
    import platformdirs

    return AppPaths(
        config_dir=Path(platformdirs.user_config_dir(APP_DIR_NAME, appauthor=False)),
        data_dir=Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False)),
        cache_dir=Path(platformdirs.user_cache_dir(APP_DIR_NAME, appauthor=False)),
        log_dir=Path(platformdirs.user_log_dir(APP_DIR_NAME, appauthor=False)),
        reports_dir=Path(platformdirs.user_downloads_dir()),
    )


def resources_dir() -> Path:
    """The ``resources/`` folder: next to the package in a checkout, or inside a frozen bundle."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    candidates = []
    if frozen_root:
        candidates.append(Path(frozen_root) / "resources")
    package = Path(__file__).resolve().parents[2]  # modu_desktop/core/account/paths.py
    candidates.append(package.parent / "resources")
    candidates.append(package / "resources")
    for c in candidates:
        if c.is_dir():
            return c
    return candidates[-1]
