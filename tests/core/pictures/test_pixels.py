"""A picture's pixel size from its header, for every kind the site takes."""

from __future__ import annotations

from modu_desktop.core.pictures.pixels import PixelSize, pixel_size
from tests.helpers.paths import CHECKOUT
from tests.helpers.pictures import gif, jpeg, png, webp

SEED = CHECKOUT / "modu_desktop/sandbox/repo/seed_data/static/img"


def test_every_kind_the_site_takes() -> None:
    assert pixel_size(png(1200, 800)) == PixelSize(1200, 800)
    assert pixel_size(gif(320, 240)) == PixelSize(320, 240)
    assert pixel_size(jpeg(4000, 3000)) == PixelSize(4000, 3000)
    assert pixel_size(webp(1920, 1080)) == PixelSize(1920, 1080)
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40px"></svg>'
    assert pixel_size(svg) == PixelSize(120, 40)


def test_a_photo_turned_by_its_camera_is_measured_as_shown() -> None:
    # EXIF orientation 6: stored 4000×3000, shown upright as 3000×4000 (as browsers show it)
    assert pixel_size(jpeg(4000, 3000, orientation=6)) == PixelSize(3000, 4000)
    assert pixel_size(jpeg(4000, 3000, orientation=1)) == PixelSize(4000, 3000)


def test_an_svg_with_only_a_view_box() -> None:
    svg = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300.4 100">'
    assert pixel_size(svg + b"</svg>") == PixelSize(300, 100)
    assert pixel_size(b'<svg width="100%" viewBox="0,0,30,10"></svg>') == PixelSize(30, 10)


def test_no_size_is_none_never_an_error() -> None:
    assert pixel_size(b"") is None
    assert pixel_size(b"not a picture") is None
    assert pixel_size(png(10, 10)[:12]) is None  # cut short
    assert pixel_size(b"<svg></svg>") is None
    assert pixel_size(b"/etc/passwd") is None  # bytes are never taken for a path


def test_the_practice_pictures() -> None:
    for path in SEED.glob("*.png"):
        size = pixel_size(path.read_bytes())
        assert size is not None and size.width > 0 and size.height > 0, path.name
    assert str(PixelSize(1200, 800)) == "1200×800"
