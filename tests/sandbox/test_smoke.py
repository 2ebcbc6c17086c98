"""First smoke check: the shared `sandbox` fixture starts and serves the seeded repository."""

from __future__ import annotations

from typing import Any

import httpx


def test_shared_fixture_serves_seeded_tree(sandbox: Any) -> None:
    with httpx.Client(
        base_url=sandbox.api_url, headers={"Authorization": "token tok-editor1"}
    ) as client:
        tree = client.get("/repos/pnuai/PNU-Modu/git/trees/main", params={"recursive": "1"})
    assert tree.status_code == 200
    paths = {e["path"] for e in tree.json()["tree"]}
    assert "docs/99-template.md" in paths
    assert sandbox.read_file("docs/01-welcome.md").startswith(b"---\nid: welcome")
