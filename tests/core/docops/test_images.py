"""core.images: type/size checks and uploads to the sandbox."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.docops.images import (
    MAX_BYTES,
    check_image,
    image_markdown,
    upload_image,
    upload_image_file,
)
from modu_desktop.core.github.client import GitHubClient, RepoRef
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
    # static/PNU-Modu/img/x.png and stops (see tests/core/documents/test_pictures.py).
    assert image_markdown("upload_1.png", "a [b]") == "![a b](/img/uploads/upload_1.png)"
    assert image_markdown("upload_1.png") == "![](/img/uploads/upload_1.png)"


def test_upload_to_sandbox(sandbox: Any) -> None:
    async def go() -> Any:
        async with client(sandbox) as gh:
            return await upload_image(gh, PNG, "캠퍼스 사진.png", now_ms=1779179738479)

    res = asyncio.run(go())
    assert res.ok, res.message
    assert res.name == "upload_1779179738479.png"
    assert res.path == "static/img/uploads/upload_1779179738479.png"
    assert res.markdown == "![캠퍼스 사진](/img/uploads/upload_1779179738479.png)"
    assert sandbox.read_file(res.path) == PNG
    assert (
        sandbox.commits()[0]["message"].strip()
        == "upload(image): add upload_1779179738479.png via Admin Studio"
    )


def test_upload_name_from_server_clock_and_collision(sandbox: Any) -> None:
    async def go() -> Any:
        async with client(sandbox) as gh:
            await gh.get_user()  # learn the server clock
            first = await upload_image(gh, PNG, "a.png", now_ms=1000)
            second = await upload_image(gh, PNG + b"x", "b.png", now_ms=1000)  # taken: next ms
            auto = await upload_image(gh, SVG, "c.svg", alt="diagram")
            return first, second, auto

    first, second, auto = asyncio.run(go())
    assert first.name == "upload_1000.png"
    assert first.markdown == "![a](/img/uploads/upload_1000.png)"
    assert first.site_url == "/img/uploads/upload_1000.png"
    assert second.ok and second.name == "upload_1001.png"
    assert re.fullmatch(r"upload_\d{13}\.svg", auto.name or "")
    assert auto.markdown == f"![diagram](/img/uploads/{auto.name})"


def test_refused_upload_sends_nothing(sandbox: Any, tmp_path: Path) -> None:
    exe = tmp_path / "setup.exe"
    exe.write_bytes(EXE)
    big = tmp_path / "huge.jpg"
    with big.open("wb") as fh:
        fh.write(JPEG)
        fh.truncate(30 * 1024 * 1024)

    async def go() -> Any:
        async with client(sandbox) as gh:
            sandbox.reset_stats()
            a = await upload_image_file(gh, exe)
            b = await upload_image_file(gh, big)
            c = await upload_image_file(gh, tmp_path / "missing.png")
            return a, b, c, sandbox.stats()["total"]

    a, b, c, requests = asyncio.run(go())
    assert not a.ok and "Windows program" in a.message
    assert not b.ok and "30.0 MB" in b.message
    assert not c.ok and "Could not read" in c.message
    assert requests == 0


def test_upload_as_viewer_fails_with_message(sandbox: Any) -> None:
    async def go() -> Any:
        async with GitHubClient(sandbox.api_url, "tok-viewer", REPO, sleep=_no_sleep) as gh:
            return await upload_image(gh, PNG, "a.png")

    res = asyncio.run(go())
    assert not res.ok and "not uploaded" in res.message and res.error is not None


def test_larger_than_the_site_needs() -> None:
    from modu_desktop.core.docops.images import larger_than_needed, size_text

    mb = 1024 * 1024
    assert larger_than_needed("jpeg", int(3.6 * mb), 4000, 3000)  # the camera photo
    assert larger_than_needed("png", 300_000, 2400, 800)  # light but wider than any page
    assert larger_than_needed("webp", 2 * mb, 1200, 900)  # small but heavy
    assert not larger_than_needed("jpeg", 400_000, 1600, 1200)
    assert not larger_than_needed("gif", 5 * mb, 4000, 3000)  # may be animated
    assert not larger_than_needed("svg", 5 * mb, 4000, 3000)
    assert size_text(int(3.6 * mb)) == "3.6 MB" and size_text(820 * 1024) == "820 KB"
