"""core/pictures/uploads: type and size checks, names, and uploads to the sandbox."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.github.types import TreeEntry
from modu_desktop.core.pictures.uploads import (
    MAX_BYTES,
    check_image,
    image_markdown,
    upload_image,
    upload_image_file,
)
from tests.helpers.lang import in_lang
from tests.helpers.paths import CHECKOUT

REPO = RepoRef("pnuai", "PNU-Modu", "main")
SEED_PNG = CHECKOUT / "modu_desktop/sandbox/repo/seed_data/static/img"
PNG = (SEED_PNG / "modu-logo.png").read_bytes()
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 100
GIF = b"GIF89a" + b"\x00" * 50
WEBP = b"RIFF\x20\x00\x00\x00WEBPVP8 " + b"\x00" * 50
SVG = (
    b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">'
    b'<rect width="4" height="4" fill="#0af"/></svg>'
)
EXE = b"MZ\x90\x00\x03\x00\x00\x00" + b"\x00" * 200


async def _no_sleep(_: float) -> None:
    return None


def client(sb: Any) -> GitHubClient:
    return GitHubClient(sb.api_url, "tok-editor1", REPO, sleep=_no_sleep)


@pytest.mark.parametrize(
    ("data", "name", "kind", "ext"),
    [
        (PNG, "logo.png", "png", "png"),
        (PNG, "actually-png.jpg", "png", "png"),
        (JPEG, "photo.JPEG", "jpeg", "jpeg"),
        (JPEG, "photo.jpg", "jpeg", "jpg"),
        (JPEG, "noext", "jpeg", "jpg"),
        (GIF, "a.gif", "gif", "gif"),
        (WEBP, "a.webp", "webp", "webp"),
        (SVG, "a.svg", "svg", "svg"),
        (b"\xef\xbb\xbf<svg><circle r='1'/></svg>", "bom.svg", "svg", "svg"),
    ],
)
def test_accepted_types(data: bytes, name: str, kind: str, ext: str) -> None:
    c = check_image(data, name)
    assert c.ok, c.message
    assert (c.kind, c.ext) == (kind, ext)


@pytest.mark.parametrize(
    ("data", "name", "needle"),
    [
        (EXE, "setup.exe", "Windows program"),
        (EXE, "innocent.png", "Windows program"),
        (b"PK\x03\x04" + b"\0" * 30, "slides.pptx", "ZIP"),
        (b"%PDF-1.7\n", "doc.pdf", "PDF"),
        (b"\0\0\0\x18ftypheic" + b"\0" * 20, "IMG_0001.HEIC", "HEIC"),
        (b"hello world", "notes.txt", "not a supported picture"),
        (b"", "empty.png", "empty"),
        (
            b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            "x.svg",
            "script",
        ),
        (b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "x.svg", "event"),
        (b'<svg><a href="javascript:alert(1)"><text>x</text></a></svg>', "x.svg", "javascript"),
        (b"<svg><foreignObject><div/></foreignObject></svg>", "x.svg", "foreignObject"),
        (
            b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>',
            "x.svg",
            "DOCTYPE",
        ),
        (b'<?xml version="1.0"?><html><svg/></html>', "x.svg", "not an SVG"),
        (b"<svg><rect></svg>", "broken.svg", "well-formed"),
    ],
)
def test_refused_with_a_clear_reason(data: bytes, name: str, needle: str) -> None:
    c = check_image(data, name)
    assert not c.ok
    assert needle.lower() in c.message.lower(), c.message
    assert in_lang("ko", c.user_message) and in_lang("ko", c.user_message) != c.message


def test_thirty_megabyte_photo_is_refused_with_sizes() -> None:
    big = JPEG + b"\0" * (30 * 1024 * 1024)
    c = check_image(big, "DSC0001.jpg")
    assert not c.ok and c.kind == "jpeg"
    assert "30.0 MB" in c.message and "10.0 MB" in c.message
    assert "30.0 MB" in in_lang("ko", c.user_message)
    ok = check_image(JPEG + b"\0" * (3 * 1024 * 1024), "p.jpg")
    assert ok.ok and ok.warning is not None
    assert check_image(JPEG + b"\0" * (MAX_BYTES - len(JPEG)), "edge.jpg").ok


def test_markdown_names_the_upload_where_the_build_finds_it() -> None:
    # Not "{baseUrl}img/…": the build looks "/PNU-Modu/img/x.png" up as
    # static/PNU-Modu/img/x.png and stops (see tests/core/pictures/test_rule.py).
    assert image_markdown("upload_1.png", "a [b]") == "![a b](/img/uploads/upload_1.png)"
    assert image_markdown("upload_1.png") == "![](/img/uploads/upload_1.png)"


def test_upload_to_sandbox(sandbox: Any) -> None:
    async def go() -> Any:
        async with client(sandbox) as gh:
            return await upload_image(gh, PNG, "캠퍼스 사진.PNG")

    res = asyncio.run(go())
    assert res.ok, res.message
    assert res.name == "캠퍼스-사진.png"
    assert res.path == "static/img/uploads/캠퍼스-사진.png"
    assert res.markdown == "![캠퍼스 사진](/img/uploads/캠퍼스-사진.png)"
    assert sandbox.read_file(res.path) == PNG
    assert sandbox.commits()[0]["message"].strip() == (
        "upload(image): add 캠퍼스-사진.png via Admin Studio"
    )


def test_a_name_taken_in_the_folder_gets_the_next_number(sandbox: Any) -> None:
    async def go() -> Any:
        async with client(sandbox) as gh:
            first = await upload_image(gh, PNG, "Campus.png")
            # the listing knows the first one: the next name is chosen without a failed write
            listing = [TreeEntry(str(first.path), "0" * 40)]
            second = await upload_image(gh, PNG + b"x", "campus.PNG", existing=listing)
            # a listing that does not know them yet: GitHub refuses the name, the next is tried
            third = await upload_image(gh, PNG + b"y", "CAMPUS.png")
            auto = await upload_image(gh, SVG, "c.svg", alt="diagram")
            return first, second, third, auto

    first, second, third, auto = asyncio.run(go())
    assert first.name == "campus.png"
    assert first.markdown == "![Campus](/img/uploads/campus.png)"
    assert first.site_url == "/img/uploads/campus.png"
    assert second.ok and second.name == "campus-2.png"
    assert third.ok and third.name == "campus-3.png"
    assert auto.name == "c.svg" and auto.markdown == "![diagram](/img/uploads/c.svg)"
    for res in (first, second, third):
        assert sandbox.read_file(res.path) is not None


def test_the_same_picture_is_offered_instead_of_a_second_upload(sandbox: Any) -> None:
    listing = [
        TreeEntry("static/img/logo.png", git_blob_sha(b"other")),
        TreeEntry("docs/img/우리 학교.png", git_blob_sha(PNG)),
    ]

    async def go() -> Any:
        async with client(sandbox) as gh:
            sandbox.reset_stats()
            res = await upload_image(
                gh, PNG, "copy.png", existing=listing, doc_path="docs/sub/page.md"
            )
            return res, sandbox.stats()["total"]

    res, requests = asyncio.run(go())
    assert requests == 0  # nothing uploaded
    assert res.ok and res.reused and res.commit_sha is None
    assert res.path == "docs/img/우리 학교.png"
    assert res.markdown == "![copy](<../img/우리 학교.png>)"
    assert "우리 학교.png" in in_lang("ko", res.user_message)
    assert "이미" in in_lang("ko", res.user_message)


def test_refused_upload_sends_nothing(sandbox: Any, tmp_path: Path) -> None:
    exe = tmp_path / "setup.exe"
    exe.write_bytes(EXE)
    big = tmp_path / "huge.jpg"
    with big.open("wb") as fh:
        fh.write(JPEG)
        fh.truncate(30 * 1024 * 1024)

    empty = tmp_path / "빈 파일.png"
    empty.write_bytes(b"")
    text = tmp_path / "notes.png"
    text.write_text("not a picture at all", "utf-8")
    hundred = tmp_path / "scan.png"
    with hundred.open("wb") as fh:
        fh.write(PNG[:64])
        fh.truncate(100 * 1024 * 1024)
    before = [c["sha"] for c in sandbox.commits()]

    async def go() -> Any:
        async with client(sandbox) as gh:
            sandbox.reset_stats()
            results = [
                await upload_image_file(gh, f)
                for f in (exe, big, tmp_path / "missing.png", empty, text, hundred)
            ]
            return results, sandbox.stats()["total"]

    (a, b, c, zero, notes, huge), requests = asyncio.run(go())
    assert not a.ok and "Windows program" in a.message
    assert not b.ok and "30.0 MB" in b.message
    assert not c.ok and "Could not read" in c.message
    assert not zero.ok and zero.message == "빈 파일.png is empty."
    assert in_lang("ko", zero.user_message) == "빈 파일.png 파일이 비어 있습니다."
    assert not notes.ok and "not a supported picture" in notes.message
    assert "지원하는 그림 형식이 아닙니다" in in_lang("ko", notes.user_message)
    assert not huge.ok and "100.0 MB" in huge.message and "10.0 MB" in huge.message
    assert "100.0 MB" in in_lang("ko", huge.user_message)
    assert requests == 0  # nothing sent, so nothing half-written
    assert [c["sha"] for c in sandbox.commits()] == before


def test_upload_as_viewer_fails_with_message(sandbox: Any) -> None:
    async def go() -> Any:
        async with GitHubClient(sandbox.api_url, "tok-viewer", REPO, sleep=_no_sleep) as gh:
            return await upload_image(gh, PNG, "a.png")

    res = asyncio.run(go())
    assert not res.ok and "not uploaded" in res.message and res.error is not None


def test_larger_than_the_site_needs() -> None:
    from modu_desktop.core.pictures.uploads import larger_than_needed, size_text

    mb = 1024 * 1024
    assert larger_than_needed("jpeg", int(3.6 * mb), 4000, 3000)  # the camera photo
    assert larger_than_needed("png", 300_000, 2400, 800)  # light but wider than any page
    assert larger_than_needed("webp", 2 * mb, 1200, 900)  # small but heavy
    assert not larger_than_needed("jpeg", 400_000, 1600, 1200)
    assert not larger_than_needed("gif", 5 * mb, 4000, 3000)  # may be animated
    assert not larger_than_needed("svg", 5 * mb, 4000, 3000)
    assert size_text(int(3.6 * mb)) == "3.6 MB" and size_text(820 * 1024) == "820 KB"
