"""Front matter: byte-identical round trips on the real brochure docs, minimal edits, garbage."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from modu_desktop.core.brochure.frontmatter import format_scalar, parse
from tests.helpers.paths import SAMPLE_REPO

FIXTURES = SAMPLE_REPO
DOCS = sorted((FIXTURES / "docs").glob("*.md"))


def variants(text: str) -> dict[str, str]:
    crlf = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return {"plain": text, "bom": "\ufeff" + text, "crlf": crlf, "bom+crlf": "\ufeff" + crlf}


def test_fixtures_exist() -> None:
    assert len(DOCS) >= 9


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_fixture_round_trip_is_byte_identical(doc: Path) -> None:
    data = doc.read_bytes()
    for name, text in variants(data.decode("utf-8")).items():
        fm = parse(text)
        assert fm.has_block, name
        assert fm.problems == [], (name, fm.problems)
        assert fm.render() == text, name
        assert fm.render().encode("utf-8") == text.encode("utf-8")
    assert parse(data.decode("utf-8")).render().encode("utf-8") == data


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_fixture_values(doc: Path) -> None:
    fm = parse(doc.read_text("utf-8"))
    assert fm.get("id")
    assert fm.get("title")
    assert isinstance(fm.get_int("sidebar_position"), int)
    assert fm.get("theme") in {
        "public-blue",
        "teal-green",
        "royal-purple",
        "burgundy-gold",
        "ocean-cyan",
        "startup-gradient",
        "minimal-light",
    }
    assert fm.get_bool("hide_title") is True
    assert fm.body.lstrip().startswith(":::hero") or fm.body.strip()


def test_quoted_title_is_unquoted_and_kept_quoted_on_edit() -> None:
    text = (FIXTURES / "docs" / "05-part-5.md").read_text("utf-8")
    fm = parse(text)
    assert fm.get("title") == "SW전공교육 강화"
    fm.set("title", "SW전공교육 강화")  # unchanged → no byte changes
    assert fm.render() == text
    fm.set("title", '새 "제목": 2026')
    out = fm.render()
    assert 'title: "새 \\"제목\\": 2026"\n' in out
    assert out.replace('title: "새 \\"제목\\": 2026"\n', 'title: "SW전공교육 강화"\n') == text
    assert parse(out).get("title") == '새 "제목": 2026'


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_set_changes_only_one_line_with_bom_crlf(doc: Path) -> None:
    for name, text in variants(doc.read_text("utf-8")).items():
        fm = parse(text)
        fm.set("sidebar_position", 42)
        fm.set("nav_label", "새 라벨")
        out = fm.render()
        nl = "\r\n" if "crlf" in name else "\n"
        assert out.startswith("\ufeff---" if "bom" in name else "---")
        assert f"sidebar_position: 42{nl}" in out and f"nav_label: 새 라벨{nl}" in out
        before = text.split(nl)
        after = out.split(nl)
        assert len(before) == len(after)
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(changed) == 2, name
        again = parse(out)
        assert again.get_int("sidebar_position") == 42 and again.get("nav_label") == "새 라벨"
        assert again.body == fm.body


def test_comments_unknown_keys_order_and_new_keys() -> None:
    text = (
        "\ufeff---\r\n"
        "# 관리자 메모\r\n"
        "id: intro   # the doc id\r\n"
        "custom_key: 'it''s kept'\r\n"
        "tags:\r\n"
        "  - a\r\n"
        "  - b\r\n"
        "title:   Hello\r\n"
        "---\r\n"
        "\r\n"
        "Body\r\n"
    )
    fm = parse(text)
    assert fm.render() == text
    assert fm.keys() == ["id", "custom_key", "tags", "title"]
    assert fm.get("id") == "intro"
    assert fm.get("custom_key") == "it's kept"
    assert fm.get("title") == "Hello"
    fm.set("id", "intro-2")
    fm.set("layout", "poster")
    fm.set("hide_title", True)
    fm.set("custom_key", "it's new")
    out = fm.render()
    assert out == (
        "\ufeff---\r\n"
        "# 관리자 메모\r\n"
        "id: intro-2   # the doc id\r\n"
        "custom_key: 'it''s new'\r\n"
        "tags:\r\n"
        "  - a\r\n"
        "  - b\r\n"
        "title:   Hello\r\n"
        "layout: poster\r\n"
        "hide_title: true\r\n"
        "---\r\n"
        "\r\n"
        "Body\r\n"
    )
    assert fm.remove("tags")
    assert "  - a" not in fm.render()


def test_hyphenated_key_alias_and_leading_blank_lines() -> None:
    text = "\n---\nnav-label: 소개\nsidebar_position: 2.0\n---\nx"
    fm = parse(text)
    assert fm.has_block and fm.render() == text
    assert fm.get("nav_label") == "소개"
    assert fm.get_int("sidebar_position") == 2
    fm.set("nav_label", "개요")
    assert "nav-label: 개요\n" in fm.render()


def test_strings_that_need_quotes() -> None:
    assert format_scalar("2026") == '"2026"'
    assert format_scalar("true") == '"true"'
    assert format_scalar("a: b") == '"a: b"'
    assert format_scalar("# no") == '"# no"'
    assert format_scalar("- item") == '"- item"'
    assert format_scalar("") == '""'
    assert format_scalar(" padded ") == '" padded "'
    assert format_scalar("두 줄\n설명") == '"두 줄\\n설명"'
    assert format_scalar("AI·SW 강화") == "AI·SW 강화"
    assert format_scalar(5) == "5" and format_scalar(False) == "false"
    for s in ["2026", "a: b", 'q"uote\\', "두 줄\n설명", "tab\there", "'single'"]:
        fm = parse("---\ntitle: x\n---\n")
        fm.set("title", s)
        assert parse(fm.render()).get("title") == s


def test_document_without_front_matter_gets_one_on_set() -> None:
    text = "\ufeff# Title\r\n\r\nBody\r\n"
    fm = parse(text)
    assert not fm.has_block and fm.render() == text and fm.get("title") is None
    fm.set("title", "새 문서")
    assert fm.render() == "\ufeff---\r\ntitle: 새 문서\r\n---\r\n# Title\r\n\r\nBody\r\n"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "---",
        "---\n",
        "---\ntitle: no end\n",
        "---\n---\n",
        "---\r\n---",
        "---\n  indented: first\ntitle: ok\n---\n",
        '---\ntitle: "unterminated\n---\nbody',
        "---\ntitle: 'x' junk\n---\n",
        "---\n: no key\njust words\n---\n",
        "--- \ntitle: a\n... \nbody",
        "\x00\x01---\n\ud800\n",
        '---\ntitle: "bad \\q escape"\n---\n',
        "---\ntitle: a\ntitle: b\n---\n",
    ],
)
def test_garbage_never_crashes_and_round_trips(text: str) -> None:
    fm = parse(text)
    assert fm.render() == text
    fm.set("title", "T")
    fm.set("sidebar_position", 3)
    out = fm.render()
    assert parse(out).get("title") == "T"
    assert parse(out).get_int("sidebar_position") == 3


def test_malformed_reports_reasons() -> None:
    assert parse("---\ntitle: no end\n").problems
    fm = parse('---\ntitle: "open\nnav_label: x\n---\n')
    assert fm.problems and fm.get("nav_label") == "x"
    assert parse("---\ntitle: a\ntitle: b\n---\n").get("title") == "a"


def test_random_fuzz_round_trip() -> None:
    rng = random.Random(1234)
    alphabet = [
        "---",
        "\n",
        "\r\n",
        "\r",
        ":",
        " ",
        "#",
        '"',
        "'",
        "-",
        "title",
        "id",
        "\ufeff",
        "가",
        "\t",
        "|",
        "  ",
        "\\",
        "x",
    ]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        fm = parse(text)
        assert fm.render() == text
        fm.set("title", "제목")
        assert parse(fm.render()).get("title") == "제목", repr(text)
