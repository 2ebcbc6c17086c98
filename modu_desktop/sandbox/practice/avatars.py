"""Small PNG avatars for `avatar_url` (a coloured square per login; stdlib only)."""

from __future__ import annotations

import functools
import hashlib
import struct
import zlib

SIZE = 40


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


@functools.lru_cache(maxsize=64)
def avatar_png(key: str) -> bytes:
    """A 40×40 RGB PNG: a light frame around a colour taken from the login."""
    r, g, b = hashlib.sha256(key.lower().encode()).digest()[:3]
    color = bytes((64 + r // 2, 64 + g // 2, 64 + b // 2))
    frame = bytes((240, 240, 240))
    rows = []
    for y in range(SIZE):
        row = bytearray(b"\x00")  # filter type: none
        for x in range(SIZE):
            edge = min(x, y, SIZE - 1 - x, SIZE - 1 - y) < 4
            row += frame if edge else color
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + _chunk(b"IEND", b"")
    )
