"""People by name: a login is shown with the account's display name ("김민지 (kim)"), read once
from GitHub's ``GET /users/{login}`` (the sandbox answers it as GitHub does), kept on disk and
read again only when it has expired; a login without a name, or whose name cannot be read,
stays as it is. Every screen that names a lock holder says it this way (``core/locks/words``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.account import people
from modu_desktop.core.account.people import People, person, use_people
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks import words
from modu_desktop.i18n import set_language
from modu_desktop.sandbox import Sandbox, SandboxUser


@pytest.fixture
def named(tmp_path: Path) -> Iterator[Sandbox]:
    sb = Sandbox(
        tmp_path / "repo",
        users=[
            SandboxUser("kim", "tok-kim", name="김민지"),
            SandboxUser("lee", "tok-lee", name="이준호"),
            SandboxUser("park", "tok-park"),  # no display name
        ],
        seed="empty",
    ).start()
    try:
        yield sb
    finally:
        sb.stop()


@pytest.fixture(autouse=True)
def _fresh_names() -> Iterator[None]:
    before = people.current()
    yield
    use_people(before)
    set_language("en")


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def _learn(sb: Sandbox, p: People, logins: list[str]) -> bool:
    async def go() -> bool:
        client = GitHubClient(sb.api_url, "tok-kim", RepoRef("pnuai", "PNU-Modu", "main"))
        try:
            return await p.learn(client, logins)
        finally:
            await client.aclose()

    return asyncio.run(go())


def test_a_login_is_shown_with_its_display_name_and_kept_on_disk(
    named: Sandbox, tmp_path: Path
) -> None:
    file = tmp_path / "people.json"
    p = People(file)
    assert p.person("lee") == "lee"  # not known yet: the login
    assert _learn(named, p, ["lee", "park", "LEE"]) is True
    assert p.person("lee") == "이준호 (lee)"
    assert p.person("Lee") == "이준호 (Lee)"  # logins are case-insensitive
    assert p.person("park") == "park"  # the account has no display name
    set_language("ko")
    assert p.person("lee") == "이준호(lee)"
    named.reset_stats()
    again = People(file)  # the next start: from disk, no request
    assert again.person("lee") == "이준호(lee)"
    assert _learn(named, again, ["lee", "park"]) is False
    assert named.stats()["total"] == 0


def test_a_name_is_read_again_when_it_has_expired_and_a_failure_waits(
    named: Sandbox, tmp_path: Path
) -> None:
    clock = Clock()
    p = People(tmp_path / "people.json", ttl_s=3600, now=clock)
    _learn(named, p, ["kim", "nobody-here"])
    assert p.person("nobody-here") == "nobody-here"  # 404: the login stays
    named.reset_stats()
    clock.t += 60
    assert _learn(named, p, ["kim", "nobody-here"]) is False
    assert named.stats()["total"] == 0  # neither asked again: fresh, and a failure waits
    named.users[0] = replace(named.users[0], name="김민지 팀장")  # the account renamed itself
    clock.t += 3600
    assert _learn(named, p, ["kim"]) is True
    assert p.person("kim") == "김민지 팀장 (kim)"


def test_every_lock_sentence_names_the_holder_by_display_name(named: Sandbox) -> None:
    p = People()
    use_people(p)
    _learn(named, p, ["lee"])
    set_language("ko")
    h = words.Holding("lee", 1_000.0, 1_060.0, 1_100.0)
    assert words.badge(h)().startswith("이준호(lee) · ")
    assert "이준호(lee) 님이" in words.tooltip(h)()
    assert words.dialog_head(h, "비전과 추진 전략")().startswith("지금 이준호(lee) 님이")
    assert "이준호(lee) 님이" in words.read_only_banner(h)()
    assert "이준호(lee) 님이" in words.line(h, "비전과 추진 전략")()
    assert person("park") == "park" and person(None) == "?"


def test_the_sandbox_answers_a_profile_like_github(named: Sandbox) -> None:
    import httpx

    with httpx.Client(base_url=named.api_url, headers={"Authorization": "token tok-park"}) as c:
        body: dict[str, Any] = c.get("/users/KIM").json()
        assert (body["login"], body["name"], body["user_view_type"]) == ("kim", "김민지", "public")
        assert body["email"] is None  # a profile does not show the e-mail
        assert c.get("/users/park").json()["name"] is None
        assert c.get("/users/ghost").status_code == 404
