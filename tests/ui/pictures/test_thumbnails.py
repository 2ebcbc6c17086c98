"""The picture library's thumbnails: made once per picture content and loaded from disk after
that, bad bytes a placeholder (no crash, nothing cached), bytes not in the blob cache read by
blob sha a few at a time, and what the list draws made before the rest."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QBuffer, QIODevice
from PySide6.QtGui import QColor, QImage

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.pictures.library import LibraryPicture, PictureLibrary
from modu_desktop.core.pictures.pixels import PixelSize
from modu_desktop.ui.pictures.library_model import PictureListModel
from modu_desktop.ui.pictures.thumbnails import (
    THUMB_PX,
    ThumbnailCache,
    ThumbnailLoader,
    make_thumbnail,
)


def picture(width: int, height: int, fmt: str = "PNG", color: str = "#3b7dd8") -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, fmt)  # type: ignore[call-overload]
    return bytes(buf.data().data())


class Env:
    """Blob cache and GitHub stand-ins that count what the loader asks of them."""

    def __init__(self, folder: Path, blobs: dict[str, bytes]) -> None:
        self.folder = folder
        self.cached = dict(blobs)  # sha → bytes "in the blob cache"
        self.remote: dict[str, bytes] = {}  # sha → bytes only GitHub has
        self.cache_reads: list[str] = []
        self.fetches: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}
        self.ready: dict[str, tuple[QImage, PixelSize | None]] = {}
        self.failed: list[str] = []
        self.loaders: list[ThumbnailLoader] = []

    def read_cache(self, sha: str) -> bytes | None:
        self.cache_reads.append(sha)
        return self.cached.get(sha)

    async def fetch(self, sha: str) -> bytes:
        self.fetches.append(sha)
        gate = self.gates.get(sha)
        if gate is not None:
            await gate.wait()
        if sha not in self.remote:
            raise OSError("gone")
        return self.remote[sha]

    def loader(self, **kw: Any) -> ThumbnailLoader:
        loader = ThumbnailLoader(
            ThumbnailCache(self.folder), self.read_cache, self.fetch, asyncio.ensure_future, **kw
        )
        loader.ready.connect(lambda sha, image, px: self.ready.__setitem__(sha, (image, px)))
        loader.failed.connect(self.failed.append)
        self.loaders.append(loader)
        return loader


@pytest.fixture
def env(tmp_path: Path, event_loop_qt: Any) -> Iterator[Env]:
    e = Env(tmp_path / "thumbnails", {})
    yield e
    for loader in e.loaders:
        loader.stop()


def test_made_once_per_picture_then_loaded_from_disk(env: Env, qtbot: Any) -> None:
    photo = picture(640, 480, "JPEG")
    sha = git_blob_sha(photo)
    env.cached[sha] = photo
    first = env.loader()
    first.request(sha)
    first.request(sha)  # asked twice: made once
    qtbot.waitUntil(lambda: sha in env.ready)
    image, pixels = env.ready[sha]
    assert first.made == 1 and pixels == PixelSize(640, 480)
    assert max(image.width(), image.height()) == THUMB_PX and image.width() > image.height()
    assert ThumbnailCache(env.folder).path(sha).is_file()
    # a second library (the next opening): from disk, without the picture's bytes
    env.ready.clear()
    env.cache_reads.clear()
    second = env.loader()
    second.request(sha)
    qtbot.waitUntil(lambda: sha in env.ready)
    assert second.made == 0 and env.cache_reads == [] and env.fetches == []
    assert env.ready[sha][1] == PixelSize(640, 480)  # the size travels with the thumbnail


def test_bad_bytes_get_a_placeholder_and_nothing_is_cached(env: Env, qtbot: Any) -> None:
    bad = b"\x89PNG\r\n\x1a\n but not really"
    sha = git_blob_sha(bad)
    env.cached[sha] = bad
    good = picture(50, 40)
    env.cached[git_blob_sha(good)] = good
    loader = env.loader()
    model = PictureListModel(wanted=lambda s: loader.request(s, urgent=True))
    loader.ready.connect(model.set_thumbnail)
    loader.failed.connect(model.set_failed)
    model.set_library(
        PictureLibrary(
            (
                LibraryPicture("static/img/bad.png", sha, len(bad), None),
                LibraryPicture("static/img/good.png", git_blob_sha(good), len(good), None),
            )
        )
    )
    loading = model.data(model.index(0, 0), 1)  # drawn: asked for
    loader.request(git_blob_sha(good))
    qtbot.waitUntil(lambda: loader.pending() == 0)
    assert env.failed == [sha] and model.is_broken(sha)
    broken = model.data(model.index(0, 0), 1)
    assert broken.cacheKey() != loading.cacheKey()  # the "cannot be drawn" placeholder
    assert not ThumbnailCache(env.folder).path(sha).exists()
    assert model.thumbnail(git_blob_sha(good)) is not None  # the others go on
    assert make_thumbnail(b"") is None and make_thumbnail(b"GIF89a") is None


def test_bytes_not_cached_are_read_a_few_at_a_time(env: Env, qtbot: Any) -> None:
    shas = []
    for i in range(6):
        data = picture(30 + i, 20, color=f"#{i:02x}7080")
        sha = git_blob_sha(data)
        env.remote[sha] = data
        env.gates[sha] = asyncio.Event()
        shas.append(sha)
    loader = env.loader(fetches=2)
    for sha in shas:
        loader.request(sha)
    # every worker has found the bytes missing; two reads are out, the rest wait their turn
    qtbot.waitUntil(lambda: len(loader._to_fetch) == 4)
    assert len(env.fetches) == 2
    first = env.fetches[0]
    env.gates[first].set()
    qtbot.waitUntil(lambda: first in env.ready)
    assert len(env.fetches) == 3  # one done, the next one goes
    for sha in shas:
        env.gates[sha].set()
    qtbot.waitUntil(lambda: len(env.ready) == 6)
    assert loader.made == 6 and sorted(env.fetches) == sorted(shas)


@pytest.mark.expect_log("could not read picture")
def test_an_unreadable_picture_fails_alone(env: Env, qtbot: Any) -> None:
    loader = env.loader()
    loader.request("a" * 40)  # GitHub does not have it
    qtbot.waitUntil(lambda: env.failed == ["a" * 40])
    assert loader.pending() == 0


def test_what_the_list_draws_comes_first(env: Env, qtbot: Any) -> None:
    datas = [picture(20 + i, 20) for i in range(8)]
    for data in datas:
        env.cached[git_blob_sha(data)] = data
    shas = [git_blob_sha(d) for d in datas]
    hold = threading.Event()
    made: list[bytes] = []

    def make(data: bytes, px: int) -> QImage | None:
        made.append(data)
        if len(made) == 1:
            hold.wait(10)  # the one worker is busy while the rest is asked for
        return make_thumbnail(data, px)

    loader = env.loader(workers=1, make=make)
    loader.request(shas[0])
    qtbot.waitUntil(lambda: len(made) == 1)
    for sha in shas[1:-1]:
        loader.request(sha)
    loader.request(shas[-1], urgent=True)  # the list draws this one
    loader.request(shas[1], urgent=True)  # and this one, asked again
    hold.set()
    qtbot.waitUntil(lambda: len(env.ready) == 8)
    assert made[1:3] == [datas[-1], datas[1]]
    assert sorted(made) == sorted(datas)  # each once
