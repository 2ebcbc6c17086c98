"""Atomic writes, defensive JSON reads and sealed envelopes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from modu_desktop.core import atomic
from modu_desktop.core.atomic import (
    git_blob_sha,
    is_temp_name,
    move_aside,
    read_json_safely,
    read_sealed,
    seal,
    write_atomic,
)


def test_write_atomic_creates_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "file.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.json"]


def test_write_atomic_failure_keeps_old_version_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f.bin"
    write_atomic(target, b"old")

    def boom(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]


def test_temp_names_are_recognisable(tmp_path: Path) -> None:
    tmp = atomic.temp_name_for(tmp_path / "a.json")
    assert tmp.parent == tmp_path
    assert is_temp_name(tmp.name)
    assert not is_temp_name("a.json")


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"", "empty"),
        (b"  \n", "blank"),
        (b'{"a": 1', "invalid JSON"),
        (b"\xff\xfe garbage", "UTF-8"),
        (b'{"a"\x00: 1}', "NUL"),
        (b"[" * 100000, "JSON"),
    ],
)
def test_read_json_safely_reports_problems(tmp_path: Path, data: bytes, fragment: str) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(data)
    value, problem = read_json_safely(path)
    assert value is None
    assert problem is not None and fragment in problem


def test_read_json_safely_missing_and_ok(tmp_path: Path) -> None:
    assert read_json_safely(tmp_path / "nope.json") == (None, None)
    (tmp_path / "ok.json").write_text('{"a": [1, "한글"]}', encoding="utf-8")
    assert read_json_safely(tmp_path / "ok.json") == ({"a": [1, "한글"]}, None)
    value, problem = read_json_safely(tmp_path)
    assert value is None and problem


def test_sealed_roundtrip_and_truncation_at_every_offset(tmp_path: Path) -> None:
    body = {"text": "\ufeff---\r\ntitle: 안녕 😀\r\n---\r\n\x00\ud800 end", "n": 3}
    data = seal("thing", 1, body)
    path = tmp_path / "t.json"
    path.write_bytes(data)
    assert read_sealed(path, "thing", 1) == (body, None)
    for cut in range(len(data) - 1):  # the last byte is a newline: dropping it is harmless
        path.write_bytes(data[:cut])
        value, problem = read_sealed(path, "thing", 1)
        assert value is None and problem, cut


def test_sealed_detects_tampering_and_wrong_kind(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_bytes(seal("thing", 1, {"text": "abc"}).replace(b"abc", b"abd"))
    assert read_sealed(path, "thing", 1)[1] == "checksum mismatch (damaged file)"
    path.write_bytes(seal("other", 1, {"text": "abc"}))
    assert "not a thing" in (read_sealed(path, "thing", 1)[1] or "")
    path.write_bytes(seal("thing", 2, {"text": "abc"}))
    assert "version" in (read_sealed(path, "thing", 1)[1] or "")
    path.write_bytes(b"null")
    assert read_sealed(path, "thing", 1)[1] == "not a JSON object"
    assert read_sealed(tmp_path / "missing", "thing", 1) == (None, None)


def test_move_aside_keeps_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"garbage")
    moved = move_aside(path, tmp_path / "broken")
    assert moved is not None and moved.read_bytes() == b"garbage"
    assert moved.name.endswith(".broken") and not path.exists()
    assert move_aside(path) is None


def test_git_blob_sha_matches_git(tmp_path: Path) -> None:
    data = "\ufeff# 제목\r\nbody 😀\n".encode()
    assert git_blob_sha(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    try:
        out = subprocess.run(
            ["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git not available")
    assert git_blob_sha(data) == out.stdout.decode().strip()


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_write_atomic_unwritable_dir_raises_cleanly(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root ignores permissions")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(OSError):
            write_atomic(ro / "x", b"data")
    finally:
        ro.chmod(0o700)


def test_write_atomic_fsyncs_file_and_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = os.fsync

    def counting(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(atomic.os, "fsync", counting)
    write_atomic(tmp_path / "x", b"data")
    assert len(calls) >= (1 if os.name == "nt" else 2)  # the file, then its directory
