"""Settings: defaults, round trip, GHE, corrupt file tolerance, atomic write; paths override."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from modu_desktop.core.account.paths import app_paths, resources_dir
from modu_desktop.core.account.settings import (
    Settings,
    load_settings,
    save_settings,
    web_url_for_api,
)


def test_defaults_when_missing(tmp_path: Path) -> None:
    s = load_settings(tmp_path / "nope.json")
    assert (s.owner, s.name, s.branch) == ("pnuai", "PNU-Modu", "main")
    assert s.api_url == "https://api.github.com"
    assert s.api_host == "api.github.com"
    assert s.web_url == "https://github.com"
    assert s.language is None and s.required_org is None


def test_round_trip_keeps_unknown_keys(tmp_path: Path) -> None:
    p = tmp_path / "cfg" / "settings.json"
    p.parent.mkdir()
    p.write_text(json.dumps({"owner": "me", "future_key": [1, 2], "language": "ko"}), "utf-8")
    s = load_settings(p)
    assert s.owner == "me" and s.language == "ko" and s.extra == {"future_key": [1, 2]}
    s.set_repo("org/brochure")
    s.branch = "drafts"
    save_settings(s, p)
    again = json.loads(p.read_text("utf-8"))
    assert again["owner"] == "org" and again["name"] == "brochure" and again["branch"] == "drafts"
    assert again["future_key"] == [1, 2]
    assert not [f for f in p.parent.iterdir() if f.name.endswith(".tmp")]


@pytest.mark.expect_log("modu_desktop.core.account.settings")
def test_corrupt_file_is_set_aside(tmp_path: Path) -> None:
    p = tmp_path / "settings.json"
    p.write_bytes(b"{not json")
    s = load_settings(p)
    assert s == Settings()
    assert (tmp_path / "settings.json.corrupt").exists()
    p.write_text("[1, 2]", "utf-8")
    assert load_settings(p) == Settings()


def test_bad_values_fall_back(tmp_path: Path) -> None:
    p = tmp_path / "settings.json"
    p.write_text(json.dumps({"language": "fr", "owner": "", "branch": 3}), "utf-8")
    s = load_settings(p)
    assert s.language is None and s.owner == "pnuai" and s.branch == "main"


def test_ghe_urls() -> None:
    assert web_url_for_api("https://ghe.example.edu/api/v3") == "https://ghe.example.edu"
    assert web_url_for_api("https://api.pnu.ghe.com") == "https://pnu.ghe.com"
    s = Settings(api_url="https://ghe.example.edu/api/v3")
    assert s.api_host == "ghe.example.edu" and not s.is_github_com
    with pytest.raises(ValueError):
        s.set_repo("no-slash")


def test_paths_override(tmp_path: Path) -> None:
    p = app_paths(tmp_path / "d").ensure()
    assert p.config_dir.is_dir() and p.data_dir.is_dir() and p.cache_dir.is_dir()
    assert str(p.settings_file).startswith(str(tmp_path))
    assert str(p.sandbox_repo_dir).startswith(str(tmp_path))
    assert (resources_dir() / "translations").is_dir()


def test_text_size_preview_zoom_and_update_check_round_trip(tmp_path: Path) -> None:
    from modu_desktop.core.account.settings import MAX_SCALE, Settings, load_settings, save_settings

    path = tmp_path / "settings.json"
    s = Settings(text_scale=1.25, preview_zoom=0.8, check_updates=False)
    save_settings(s, path)
    back = load_settings(path)
    assert (back.text_scale, back.preview_zoom, back.check_updates) == (1.25, 0.8, False)
    path.write_text('{"text_scale": 40, "preview_zoom": "big", "check_updates": 0}', "utf-8")
    odd = load_settings(path)
    assert odd.text_scale == MAX_SCALE and odd.preview_zoom == 1.0 and odd.check_updates


def test_logs_and_reports_follow_the_data_dir(tmp_path: Path) -> None:
    from modu_desktop.core.account.paths import app_paths

    p = app_paths(tmp_path)
    assert p.logs == tmp_path.resolve() / "logs" and p.reports == tmp_path.resolve() / "reports"
