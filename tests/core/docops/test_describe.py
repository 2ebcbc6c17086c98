"""A picture's description changed on a page nobody has open, against the sandbox: under the
page's lock (taken, then let go), refused with who and since when while someone else edits the
page, refused when the page moved on — and in each refusal nothing is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from modu_desktop.core.docops.describe import save_alt_text
from modu_desktop.core.docops.ops import DocOps
from modu_desktop.core.locks.wire import lock_path
from modu_desktop.core.pictures.alt_text import AltChange, AltCode
from tests.helpers.docops import run
from tests.helpers.lang import in_lang

PAGE = "docs/04-admission.md"
PICTURE = "static/img/sample-photo.png"


def _change(seen: str | None, alt: str) -> AltChange:
    return AltChange("04-admission", "입학 안내", PAGE, PICTURE, 0, seen, alt)


def _text(sb: Any) -> str:
    data = sb.read_file(PAGE)
    assert data is not None
    return bytes(data).decode("utf-8")


def test_a_free_page_is_changed_under_its_lock(sandbox: Any, tmp_path: Path) -> None:
    before = len(sandbox.commits())

    async def body(ops: DocOps) -> Any:
        return await save_alt_text(ops.store, ops.locks, ops.login, _change("연습용 사진", "본관"))

    res = run(sandbox, tmp_path, body)
    assert res.code is AltCode.SAVED and res.ok and res.commit_sha
    text = _text(sandbox)
    assert "![본관](/img/sample-photo.png)" in text and "연습용 사진" not in text
    messages = [c["message"] for c in sandbox.commits()[: len(sandbox.commits()) - before]]
    assert len(messages) == 3  # the lock, the page, the release
    assert sandbox.read_file(lock_path("04-admission")) is None  # let go
    assert in_lang("ko", res.user_message) == "‘입학 안내’ 문서의 그림 설명을 바꿨습니다."


def test_a_page_someone_else_edits_is_refused_with_who(sandbox: Any, tmp_path: Path) -> None:
    async def hold(ops: DocOps) -> None:
        assert (await ops.locks.acquire("04-admission")).held is not None

    run(sandbox, tmp_path, hold, login="editor2", session="other")
    text, commits = _text(sandbox), len(sandbox.commits())

    async def body(ops: DocOps) -> Any:
        return await save_alt_text(ops.store, ops.locks, ops.login, _change("연습용 사진", "본관"))

    res = run(sandbox, tmp_path, body)
    assert res.code is AltCode.LOCKED and not res.ok
    assert "editor2" in res.text.en and "입학 안내" in res.text.en
    assert "editor2 님" in res.text.ko
    assert _text(sandbox) == text and len(sandbox.commits()) == commits  # nothing written
    assert sandbox.read_file(lock_path("04-admission")) is not None  # their lock stays


def test_a_page_that_moved_on_is_left_alone(sandbox: Any, tmp_path: Path) -> None:
    text = _text(sandbox)

    async def body(ops: DocOps) -> Any:
        return await save_alt_text(ops.store, ops.locks, ops.login, _change("옛 설명", "본관"))

    res = run(sandbox, tmp_path, body)
    assert res.code is AltCode.CHANGED and not res.ok
    assert _text(sandbox) == text
    assert sandbox.read_file(lock_path("04-admission")) is None  # the lock went anyway
