"""A tiny pure-Python raster and PNG writer for the benchmarks' plots (matplotlib is not a
dependency): lines, filled squares, a grid; RGB, 8 bits; zlib from the standard library."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

RGB = tuple[int, int, int]


class Canvas:
    """``width`` x ``height`` pixels, white; (0, 0) is the top left."""

    def __init__(self, width: int, height: int, background: RGB = (255, 255, 255)):
        self.width, self.height = width, height
        self.pixels = [bytearray(bytes(background) * width) for _ in range(height)]

    def dot(self, x: int, y: int, color: RGB) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.pixels[y][3 * x : 3 * x + 3] = bytes(color)

    def square(self, x: int, y: int, half: int, color: RGB) -> None:
        for dy in range(-half, half + 1):
            for dx in range(-half, half + 1):
                self.dot(x + dx, y + dy, color)

    def line(self, x0: int, y0: int, x1: int, y1: int, color: RGB, width: int = 1) -> None:
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for i in range(steps + 1):
            x = round(x0 + (x1 - x0) * i / steps)
            y = round(y0 + (y1 - y0) * i / steps)
            self.square(x, y, width // 2, color)

    def save(self, path: Path) -> None:
        raw = b"".join(b"\x00" + bytes(row) for row in self.pixels)

        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        png = (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b"")
        )
        Path(path).write_bytes(png)
