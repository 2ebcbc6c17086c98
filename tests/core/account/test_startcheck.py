"""The start-up check: one small ``GET git/trees/{branch}`` from a worker thread,
started before Qt is imported; its answer reaches whoever asks, before or after it is in."""

from __future__ import annotations

import logging
import threading
from typing import Any

import httpx
import pytest

from modu_desktop.core.account.startcheck import StartCheck, tree_sha_now

REPO = "pnuai/PNU-Modu"


def _tree_sha(sandbox: Any) -> str:
    r = httpx.get(
        f"{sandbox.api_url}/repos/{REPO}/git/trees/main?recursive=1",
        headers={"Authorization": "token tok-editor1", "User-Agent": "t"},
    )
    return str(r.json()["sha"])


def _answered(check: StartCheck) -> str:
    done = threading.Event()
    got: list[str] = []

    def answered(sha: str) -> None:
        got.append(sha)
        done.set()

    check.when_answered(answered)
    assert done.wait(10)
    return got[0]


def test_the_answer_is_the_recursive_trees_sha_from_one_small_request(
    sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MODU_TOKEN", "tok-editor1")
    sandbox.reset_stats()
    check = StartCheck(sandbox.api_url, REPO, "main", "127.0.0.1").start()
    assert _answered(check) == _tree_sha(sandbox)  # the sha the list file keeps
    assert sandbox.stats()["total"] == 2  # ours and the test's own
    # Asked again once it is in: answered at once, in the caller's thread, no new request.
    here: list[str] = []
    check.when_answered(here.append)
    assert here == [check.answer] and sandbox.stats()["total"] == 2


def test_no_token_means_no_request_and_an_empty_answer(
    sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    monkeypatch.setattr("modu_desktop.core.account.auth.TokenStore.load", lambda self: None)
    sandbox.reset_stats()
    assert _answered(StartCheck(sandbox.api_url, REPO, "main", "x").start()) == ""
    assert sandbox.stats()["total"] == 0


@pytest.mark.parametrize(
    ("token", "repo"), [("tok-nobody", REPO), ("tok-editor1", "pnuai/missing")]
)
def test_a_refusal_is_an_empty_answer_and_the_log_never_has_the_token(
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    token: str,
    repo: str,
) -> None:
    monkeypatch.setenv("MODU_TOKEN", token)
    caplog.set_level(logging.DEBUG, logger="modu_desktop.core.account.startcheck")
    assert _answered(StartCheck(sandbox.api_url, repo, "main", "x").start()) == ""
    assert "did not answer" in caplog.text and token not in caplog.text


def test_no_token_is_ever_sent_over_plain_http_to_another_host() -> None:
    with pytest.raises(ValueError):
        tree_sha_now("http://example.invalid", REPO, "main", "secret")
