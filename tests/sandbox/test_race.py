"""The branch race and the per-user secondary limits, as GitHub behaves (docs/github-behaviour.md).

A Contents API write is built on the branch head it read; when another write moves the branch
before the write moves it, GitHub answers 409 "is at X but expected Y" and applies nothing —
even when the two writes touch different files. The sandbox does the same within a race window,
and can make the next write to a path lose on purpose (no sleeping needed to provoke it).
"""

from __future__ import annotations

import re
import threading
from typing import Any

import httpx
import pytest

from modu_desktop.sandbox import Faults, Sandbox
from tests.helpers.sandbox import REPO_PATH, assert_repo_intact, b64, client_for

BRANCH_MOVED = re.compile(r"^is at ([0-9a-f]{40}) but expected ([0-9a-f]{40})$")
LOCK = ".locks/01-welcome.lock.json"
WELCOME = "docs/01-welcome.md"


def contents(path: str) -> str:
    return f"{REPO_PATH}/contents/{path}"


def head_of(c: httpx.Client) -> str:
    return str(c.get(f"{REPO_PATH}/git/ref/heads/main").json()["object"]["sha"])


def blob_sha(c: httpx.Client, path: str) -> str | None:
    r = c.get(f"{REPO_PATH}/git/trees/main", params={"recursive": 1})
    return next((e["sha"] for e in r.json()["tree"] if e["path"] == path), None)


def create(c: httpx.Client, path: str, text: str) -> httpx.Response:
    return c.put(contents(path), json={"message": f"create {path}", "content": b64(text)})


def test_a_write_made_to_lose_answers_409_branch_moved_and_applies_nothing(
    sb: Sandbox, editor: httpx.Client
) -> None:
    before = head_of(editor)
    sb.lose_next_write(LOCK)
    r = create(editor, LOCK, '{"docId": "01-welcome"}')
    assert r.status_code == 409
    moved = BRANCH_MOVED.match(r.json()["message"])
    assert moved is not None, r.json()
    now, expected = moved.groups()
    assert expected == before  # the head the write was built on
    assert now == head_of(editor) != before  # another commit moved the branch…
    assert blob_sha(editor, LOCK) is None  # …and ours was not applied
    assert sb.read_file(LOCK) is None
    assert r.json()["documentation_url"].startswith("https://docs.github.com/")
    # The other commit changed no file of ours; sent again, the same write lands.
    assert sb.commits()[0]["parents"] == [before]
    assert create(editor, LOCK, '{"docId": "01-welcome"}').status_code == 201
    assert sb.stats()["branch_moved"] == 1
    assert_repo_intact(sb)


def test_updates_and_deletes_lose_the_race_the_same_way(sb: Sandbox, editor: httpx.Client) -> None:
    sha = blob_sha(editor, WELCOME)
    assert sha is not None
    sb.lose_next_write(WELCOME, times=2)
    update = editor.put(
        contents(WELCOME), json={"message": "edit", "content": b64("새 내용\n"), "sha": sha}
    )
    delete = editor.request("DELETE", contents(WELCOME), json={"message": "remove", "sha": sha})
    for r in (update, delete):
        assert r.status_code == 409 and BRANCH_MOVED.match(r.json()["message"]), r.json()
    assert blob_sha(editor, WELCOME) == sha  # unchanged: neither write was applied
    done = editor.put(
        contents(WELCOME), json={"message": "edit", "content": b64("새 내용\n"), "sha": sha}
    )
    assert done.status_code == 200


def test_a_wrong_sha_is_still_the_other_409(sb: Sandbox, editor: httpx.Client) -> None:
    """Two different 409s: "does not match" (the file changed) and "is at … but expected …"
    (only the branch moved). A client tells them apart by reading the file's blob sha."""
    r = editor.put(
        contents(WELCOME), json={"message": "edit", "content": b64("x"), "sha": "0" * 40}
    )
    assert r.status_code == 409
    assert r.json()["message"] == f"{WELCOME} does not match {'0' * 40}"


def test_forced_losses_name_a_path_or_a_folder_and_only_those(
    sb: Sandbox, editor: httpx.Client
) -> None:
    sb.lose_next_write("static/img/uploads/")
    assert create(editor, "docs/other.md", "x").status_code == 201  # another path: no race
    assert create(editor, "static/img/uploads/a.png", "png").status_code == 409
    assert create(editor, "static/img/uploads/a.png", "png").status_code == 201  # once only


def test_writes_overlapping_in_the_race_window_conflict_even_on_different_files(
    sb: Sandbox,
) -> None:
    """Two editors write two different files at once: one wins, the other gets 409 — the
    behaviour behind GitHub's "use these endpoints serially"."""
    sb.faults.race_window_ms = 400
    barrier = threading.Barrier(2)
    answers: dict[str, httpx.Response] = {}

    def write(token: str, path: str) -> None:
        with client_for(sb, token=token) as c:
            barrier.wait()
            answers[path] = create(c, path, path)

    threads = [
        threading.Thread(target=write, args=("tok-editor1", "docs/a.md")),
        threading.Thread(target=write, args=("tok-editor2", "docs/b.md")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    statuses = sorted(r.status_code for r in answers.values())
    assert statuses == [201, 409], {p: r.json() for p, r in answers.items()}
    loser = next(p for p, r in answers.items() if r.status_code == 409)
    assert BRANCH_MOVED.match(answers[loser].json()["message"])
    assert sb.read_file(loser) is None
    assert_repo_intact(sb)


def test_writes_one_after_another_never_race(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.race_window_ms = 50
    for i in range(3):
        assert create(editor, f"docs/serial-{i}.md", str(i)).status_code == 201
    assert sb.stats()["branch_moved"] == 0


def test_race_rate_limited_to_lock_files(make_sandbox: Any) -> None:
    sb = make_sandbox(faults=Faults(race_rate=1.0, race_paths=(".locks/",), rng_seed=1))
    with client_for(sb) as c:
        assert create(c, LOCK, "{}").status_code == 409
        assert create(c, "docs/fine.md", "x").status_code == 201
        sb.faults.race_rate = 0.0
        assert create(c, LOCK, "{}").status_code == 201


def test_the_race_hook_over_http(sb: Sandbox, editor: httpx.Client) -> None:
    with httpx.Client(base_url=sb.api_url) as meta:
        assert meta.post("/_sandbox/race", json={"path": LOCK, "times": 1}).status_code == 204
        assert meta.post("/_sandbox/race", json={"times": 1}).status_code == 422
        assert meta.post("/_sandbox/faults", json={"race_paths": [".locks/"]}).json()[
            "race_paths"
        ] == [".locks/"]
        assert meta.post("/_sandbox/faults", json={"race_rate": 1.5}).status_code == 422
    assert create(editor, LOCK, "{}").status_code == 409


# ----- secondary limits, per user -----------------------------------------------------------


def test_documented_secondary_limits_are_on_by_default() -> None:
    f = Faults()
    assert (f.secondary_concurrent, f.secondary_points_per_minute) == (100, 900)
    assert (f.content_per_minute, f.content_per_hour) == (80, 500)


def test_content_creation_per_minute_with_retry_after(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.content_per_minute = 2
    assert create(editor, "docs/c1.md", "1").status_code == 201
    assert create(editor, "docs/c2.md", "2").status_code == 201
    r = create(editor, "docs/c3.md", "3")
    assert r.status_code == 403
    assert "temporarily blocked from content creation" in r.json()["message"]
    assert int(r.headers["X-RateLimit-Remaining"]) > 0  # not the primary limit
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert sb.read_file("docs/c3.md") is None
    assert editor.get("/user").status_code == 200  # reads are not content creation
    with client_for(sb, token="tok-editor2") as other:
        assert create(other, "docs/c3.md", "3").status_code == 201  # per user, not global


def test_content_creation_per_hour(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(content_per_minute=None, content_per_hour=1)
    assert create(editor, "docs/h1.md", "1").status_code == 201
    r = create(editor, "docs/h2.md", "2")
    assert r.status_code == 403
    assert 60 < int(r.headers["Retry-After"]) <= 3600


def test_points_per_minute_weigh_writes_five(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.secondary_points_per_minute = 7
    assert editor.get("/user").status_code == 200  # 1
    assert create(editor, "docs/p.md", "p").status_code == 201  # 5 → 6
    assert editor.get("/user").status_code == 200  # 7
    r = editor.get("/user")
    assert r.status_code == 403 and "secondary rate limit" in r.json()["message"]
    assert "Retry-After" in r.headers


def test_a_compressed_clock_shortens_the_minute(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(content_per_minute=1, rate_time_scale=60.0)
    assert create(editor, "docs/s1.md", "1").status_code == 201
    r = create(editor, "docs/s2.md", "2")
    assert r.status_code == 403 and r.headers["Retry-After"] == "1"  # a minute is 1 s here


def test_retry_after_fixed_or_left_out(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(content_per_minute=0, secondary_retry_after=42)
    assert create(editor, "docs/r.md", "r").headers["Retry-After"] == "42"
    sb.faults.secondary_omit_retry_after = True
    assert "Retry-After" not in create(editor, "docs/r.md", "r").headers


def test_too_many_concurrent_requests(sb: Sandbox, editor: httpx.Client) -> None:
    """A write waiting in its race window is in flight; one more request of the same user
    is over a concurrency limit of 1, another user's is not."""
    sb.faults.update(secondary_concurrent=1, race_window_ms=3000)
    done = threading.Event()
    answers: list[httpx.Response] = []

    def slow_write() -> None:
        with client_for(sb) as c:
            answers.append(create(c, "docs/slow.md", "slow"))
        done.set()

    writer = threading.Thread(target=slow_write)
    writer.start()
    assert _wait_for(lambda: sb.injector.in_flight("editor1") == 1)
    r = editor.get("/user")
    assert r.status_code == 403 and "secondary rate limit" in r.json()["message"]
    with client_for(sb, token="tok-editor2") as other:
        assert other.get("/user").status_code == 200
    sb.faults.race_window_ms = 0  # takes effect for the next write; this one finishes
    writer.join(timeout=30)
    assert done.is_set() and answers[0].status_code == 201


def _wait_for(condition: Any, tries: int = 400) -> bool:
    event = threading.Event()
    for _ in range(tries):
        if condition():
            return True
        event.wait(0.01)
    return False


@pytest.mark.parametrize("field", ["race_window_ms", "race_rate", "content_per_minute"])
def test_new_fields_are_listed_by_the_faults_hook(sb: Sandbox, field: str) -> None:
    with httpx.Client(base_url=sb.api_url) as meta:
        assert field in meta.get("/_sandbox/faults").json()
