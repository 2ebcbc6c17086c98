"""Opt-in (needs Node and npm; skips without them): the publish check agrees with the real site
toolchain on the corpus, misses no known site-breaker, and its one-click fixes make the
documents build. The same measurement as ``scripts/publish_check_accuracy.py``."""

from __future__ import annotations

import importlib.util
import json

from tests.helpers.nodetools import require_node, site_checkout
from tests.helpers.paths import CHECKOUT

SCRIPT = CHECKOUT / "scripts" / "publish_check_accuracy.py"


def _tool():
    spec = importlib.util.spec_from_file_location("publish_check_accuracy", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_check_agrees_with_the_real_toolchain_on_the_corpus() -> None:
    require_node()
    report = _tool().measure(site_checkout())
    summary = {k: report[k] for k in ("documents", "agree", "agreement", "fix_builds")}
    assert report["documents"] >= 300, summary
    assert report["by_part"]["breaker"] >= 30
    assert report["oracle_breaks"] >= 100  # the corpus really exercises the breakers
    assert not report["breakers_missed"], report["breakers_missed"]
    assert report["agreement"] >= 0.99, json.dumps(
        {"misses": report["misses"], "false_alarms": report["false_alarms"]}, ensure_ascii=False
    )
    assert report["fix_attempted"] >= 80
    assert report["fix_builds"] == report["fix_attempted"], report["fix_failed"]


def test_the_oracle_sees_what_the_build_sees() -> None:
    """The oracle is the arbiter: it must fail the render-only breaker and pass a clean page."""
    require_node()
    tool = _tool()
    fm = "---\nid: x\ntitle: 예시\n---\n\n"
    got = tool.run_oracle(
        site_checkout(),
        [
            ("clean", "50-x.md", fm + "본문 <br /> 입니다.\n"),
            ("name", "50-x.md", fm + "안녕하세요, {name} 님.\n"),
            ("br", "50-x.md", fm + "본문 <br> 입니다.\n"),
        ],
    )
    assert got["clean"]["ok"] is True
    assert got["name"]["ok"] is False and got["name"]["stage"] == "render"
    assert "name is not defined" in got["name"]["message"]
    assert got["br"]["ok"] is False and got["br"]["stage"] == "compile"
