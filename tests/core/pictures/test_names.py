"""An uploaded picture's name: the person's own, made safe for the site and for git on Windows
and macOS, and unique in its folder."""

from __future__ import annotations

import unicodedata

import pytest

from modu_desktop.core.pictures.names import next_name, safe_name, unique_name
from modu_desktop.core.pictures.rule import locate_picture, upload_address


@pytest.mark.parametrize(
    ("given", "ext", "expected"),
    [
        ("캠퍼스 사진.png", "png", "캠퍼스-사진.png"),  # Hangul kept, the space a dash
        ("Campus Photo.JPG", "jpg", "campus-photo.jpg"),  # lower case, the extension too
        ("C:\\Users\\kim\\바탕 화면\\행사 (1).jpeg", "jpeg", "행사-1.jpeg"),  # a Windows path
        ("/home/kim/../../etc/passwd.png", "png", "passwd.png"),  # no folders, no ".."
        ("a..b...c.png", "png", "a-b-c.png"),
        ("  .hidden.png", "png", "hidden.png"),  # no leading dot
        ('what?<is>:this|"*.png', "png", "what-is-this.png"),  # what Windows refuses
        ("100% #1 & [final].png", "png", "100-1-final.png"),  # what an address must escape
        ("CON.png", "png", "con-picture.png"),  # Windows reserved names
        ("lpt9.gif", "gif", "lpt9-picture.gif"),
        ("???.png", "png", "picture.png"),  # nothing left: a plain name
        ("photo.jpg", "png", "photo.png"),  # a PNG named .jpg keeps its real type
        ("snake_case-name.webp", "webp", "snake_case-name.webp"),
    ],
)
def test_a_safe_name(given: str, ext: str, expected: str) -> None:
    assert safe_name(given, ext) == expected


def test_hangul_from_a_mac_is_written_as_the_keyboard_writes_it() -> None:
    # macOS hands over decomposed Hangul; a page typed anywhere names the composed form, and the
    # build compares bytes.
    decomposed = unicodedata.normalize("NFD", "입학 안내.png")
    assert decomposed != "입학 안내.png"
    name = safe_name(decomposed, "png")
    assert name == "입학-안내.png" and unicodedata.is_normalized("NFC", name)


def test_a_long_name_is_cut() -> None:
    name = safe_name("가" * 200 + ".png", "png")
    assert name == "가" * 60 + ".png"
    assert len(name.encode("utf-8")) < 255  # every file system takes it


def test_a_safe_name_is_an_address_the_site_finds_as_written() -> None:
    for given in ("캠퍼스 사진 (최종).PNG", "a b#c?d.png", "%41.png"):
        name = safe_name(given, "png")
        address = upload_address(f"static/img/uploads/{name}")
        picture = locate_picture(address, "docs/01-intro.md")
        assert picture.path == f"static/img/uploads/{name}", given


def test_unique_in_its_folder_case_ignored() -> None:
    taken = ["Campus.png", "campus-2.png", "other.png"]
    assert unique_name("campus.png", taken) == "campus-3.png"
    assert unique_name("new.png", taken) == "new.png"
    assert unique_name("입학.png", [unicodedata.normalize("NFD", "입학.png")]) == "입학-2.png"
    assert next_name("campus.png") == "campus-2.png"
    assert next_name("campus-2.png") == "campus-3.png"
    assert next_name("2024-1.png") == "2024-1-2.png"  # a name that ends in "-1" is its own
