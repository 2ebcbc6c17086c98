"""The sandbox's Git Data API as GitHub documents it: blobs (utf-8 and base64), trees over a
`base_tree` (a sha, inline content, `"sha": null` to delete), commits with parents, and a branch
moved only as a fast forward (422 "Update is not a fast forward" otherwise), plus a folder's tree
read by its path (`git/trees/{rev}:{folder}`)."""

from __future__ import annotations

from typing import Any

import httpx

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.sandbox import Sandbox
from tests.helpers.sandbox import REPO_PATH, SandboxFactory, b64, client_for

R = REPO_PATH


def _head(c: httpx.Client) -> dict[str, Any]:
    sha = c.get(f"{R}/git/ref/heads/main").json()["object"]["sha"]
    return dict(c.get(f"{R}/git/commits/{sha}").json())


def _commit(c: httpx.Client, tree: list[dict[str, Any]], message: str = "docs: many") -> str:
    head = _head(c)
    made = c.post(f"{R}/git/trees", json={"base_tree": head["tree"]["sha"], "tree": tree})
    assert made.status_code == 201, made.text
    commit = c.post(
        f"{R}/git/commits",
        json={"message": message, "tree": made.json()["sha"], "parents": [head["sha"]]},
    )
    assert commit.status_code == 201, commit.text
    return str(commit.json()["sha"])


def test_blobs_in_both_encodings_have_git_shas(sb: Sandbox, editor: httpx.Client) -> None:
    text = "안녕하세요\r\n두 번째 줄\n"
    r = editor.post(f"{R}/git/blobs", json={"content": text})
    assert r.status_code == 201 and r.json()["sha"] == git_blob_sha(text.encode())
    assert r.headers["location"] == r.json()["url"]
    png = b"\x89PNG\r\n\x1a\n\x00\xff"
    r = editor.post(f"{R}/git/blobs", json={"content": b64(png), "encoding": "base64"})
    assert r.status_code == 201 and r.json()["sha"] == git_blob_sha(png)
    got = editor.get(
        f"{R}/git/blobs/{r.json()['sha']}", headers={"Accept": "application/vnd.github.raw"}
    )
    assert got.content == png
    assert editor.post(f"{R}/git/blobs", json={}).status_code == 422
    bad = editor.post(f"{R}/git/blobs", json={"content": "@@", "encoding": "base64"})
    assert bad.status_code == 422
    assert (
        editor.post(f"{R}/git/blobs", json={"content": "x", "encoding": "rot13"}).status_code == 422
    )


def test_one_commit_changes_adds_and_deletes_files_once_the_branch_moves(
    sb: Sandbox, editor: httpx.Client
) -> None:
    before = _head(editor)
    blob = editor.post(f"{R}/git/blobs", json={"content": "# 둘\n"}).json()["sha"]
    sha = _commit(
        editor,
        [
            {"path": "docs/01-welcome.md", "mode": "100644", "type": "blob", "content": "# 하나\n"},
            {"path": "docs/02-programs.md", "mode": "100644", "type": "blob", "sha": blob},
            {"path": "docs/새 폴더/03.md", "mode": "100644", "type": "blob", "content": "셋\n"},
            {"path": "docs/03-strategy.md", "mode": "100644", "type": "blob", "sha": None},
        ],
        "docs(edit): update 4 files by @editor1",
    )
    assert _head(editor)["sha"] == before["sha"]  # nothing published yet
    assert sb.read_file("docs/01-welcome.md") != b"# \xed\x95\x98\xeb\x82\x98\n"
    r = editor.patch(f"{R}/git/refs/heads/main", json={"sha": sha, "force": False})
    assert r.status_code == 200, r.text
    assert r.json()["object"]["sha"] == sha and r.json()["ref"] == "refs/heads/main"
    assert sb.read_file("docs/01-welcome.md") == "# 하나\n".encode()
    assert sb.read_file("docs/02-programs.md") == "# 둘\n".encode()
    assert sb.read_file("docs/새 폴더/03.md") == "셋\n".encode()
    assert sb.read_file("docs/03-strategy.md") is None
    (top,) = [c for c in sb.commits()[:1]]
    assert top["sha"] == sha and top["parents"] == [before["sha"]]
    # The web admin's read (Contents API by branch) sees the new text.
    got = editor.get(
        f"{R}/contents/docs/01-welcome.md", headers={"Accept": "application/vnd.github.raw"}
    )
    assert got.text == "# 하나\n"


def test_a_branch_that_moved_is_not_fast_forwarded(sb: Sandbox, editor: httpx.Client) -> None:
    ours = _commit(
        editor, [{"path": "docs/x.md", "mode": "100644", "type": "blob", "content": "x"}]
    )
    other = editor.put(
        f"{R}/contents/docs/other.md", json={"message": "docs: other", "content": b64("o")}
    )
    assert other.status_code == 201
    moved = _head(editor)["sha"]
    r = editor.patch(f"{R}/git/refs/heads/main", json={"sha": ours})
    assert r.status_code == 422 and r.json()["message"] == "Update is not a fast forward"
    assert _head(editor)["sha"] == moved and sb.read_file("docs/other.md") == b"o"
    assert sb.stats()["branch_moved"] == 1
    # force: true overwrites (we never send it; GitHub allows it)
    assert (
        editor.patch(f"{R}/git/refs/heads/main", json={"sha": ours, "force": True}).status_code
        == 200
    )
    assert sb.read_file("docs/other.md") is None


def test_the_race_faults_reach_branch_updates(sb: Sandbox, editor: httpx.Client) -> None:
    ours = _commit(
        editor, [{"path": "docs/y.md", "mode": "100644", "type": "blob", "content": "y"}]
    )
    sb.lose_next_write("docs/y.md")
    r = editor.patch(f"{R}/git/refs/heads/main", json={"sha": ours})
    assert r.status_code == 422 and sb.read_file("docs/y.md") is None


def test_tree_and_commit_refusals(sb: Sandbox, editor: httpx.Client) -> None:
    head = _head(editor)
    base = head["tree"]["sha"]

    def tree(*entries: dict[str, Any], base_tree: str | None = base) -> httpx.Response:
        body: dict[str, Any] = {"tree": list(entries)}
        if base_tree is not None:
            body["base_tree"] = base_tree
        return editor.post(f"{R}/git/trees", json=body)

    entry = {"path": "docs/a.md", "mode": "100644", "type": "blob"}
    assert tree({**entry, "sha": None, "path": "docs/missing.md"}).status_code == 422
    both = tree({**entry, "sha": "1" * 40, "content": "x"})
    assert both.status_code == 422 and "either tree.sha or tree.content" in both.json()["message"]
    assert tree(entry).status_code == 422  # neither
    assert (
        tree({**entry, "sha": "2" * 40}).json()["message"]
        == f"tree.sha {'2' * 40} is not a valid blob"
    )
    assert tree({**entry, "content": "x"}, base_tree="3" * 40).status_code == 422
    assert tree({**entry, "content": "x", "path": "docs/../x.md"}).status_code == 422
    assert tree({**entry, "content": "x", "mode": "100600"}).status_code == 422
    assert editor.post(f"{R}/git/trees", json={}).status_code == 422
    no_base = tree({**entry, "content": "x"}, base_tree=None)
    assert no_base.status_code == 201 and [e["path"] for e in no_base.json()["tree"]] == ["docs"]
    c = editor.post(f"{R}/git/commits", json={"message": "m", "tree": "4" * 40})
    assert c.status_code == 422 and c.json()["message"] == "Tree SHA does not exist"
    c = editor.post(f"{R}/git/commits", json={"message": "m", "tree": base, "parents": ["5" * 40]})
    assert c.status_code == 422
    c = editor.post(f"{R}/git/commits", json={"tree": base})
    assert c.status_code == 422 and '"message" wasn\'t supplied' in c.json()["message"]
    p = editor.patch(f"{R}/git/refs/heads/nope", json={"sha": head["sha"]})
    assert p.status_code == 422 and p.json()["message"] == "Reference does not exist"
    p = editor.patch(f"{R}/git/refs/heads/main", json={"sha": "6" * 40})
    assert p.status_code == 422 and p.json()["message"] == "Object does not exist"
    assert editor.patch(f"{R}/git/refs/heads/main", json={}).status_code == 422


def test_commit_authors_default_to_the_token_user(sb: Sandbox, editor: httpx.Client) -> None:
    head = _head(editor)
    c = editor.post(
        f"{R}/git/commits",
        json={"message": "m", "tree": head["tree"]["sha"], "parents": [head["sha"]]},
    )
    body = c.json()
    assert body["author"]["name"] == body["committer"]["name"] == "editor1"
    who = {"name": "김담당", "email": "kim@example.com", "date": "2026-03-02T09:00:00Z"}
    c = editor.post(
        f"{R}/git/commits",
        json={"message": "m", "tree": head["tree"]["sha"], "parents": [head["sha"]], "author": who},
    )
    assert c.json()["author"]["email"] == c.json()["committer"]["email"] == "kim@example.com"


def test_a_read_only_user_and_an_empty_repository(make_sandbox: SandboxFactory) -> None:
    sb = make_sandbox()
    with client_for(sb, "tok-viewer") as viewer:
        assert viewer.post(f"{R}/git/blobs", json={"content": "x"}).status_code == 404
        assert viewer.patch(f"{R}/git/refs/heads/main", json={"sha": "1" * 40}).status_code == 404
    empty = make_sandbox("empty", seed="empty")
    with client_for(empty) as c:
        r = c.post(f"{R}/git/blobs", json={"content": "x"})
        assert r.status_code == 409 and r.json()["message"] == "Git Repository is empty."


def test_a_folder_tree_is_read_by_its_path(sb: Sandbox, editor: httpx.Client) -> None:
    head = _head(editor)
    docs = editor.get(f"{R}/git/trees/main:docs")
    assert docs.status_code == 200
    assert "01-welcome.md" in [e["path"] for e in docs.json()["tree"]]
    by_commit = editor.get(f"{R}/git/trees/{head['sha']}:docs")
    assert by_commit.json()["sha"] == docs.json()["sha"]
    encoded = editor.get(f"{R}/git/trees/main%3Adocs")
    assert encoded.json()["sha"] == docs.json()["sha"]
    assert editor.get(f"{R}/git/trees/main:no-such-folder").status_code == 404
    assert editor.get(f"{R}/git/trees/main:docs/01-welcome.md").status_code == 404  # a file
