"""``modu-desktop docs search``: every place on every page, as the cards show it, in the
catalogue's words; JSON with the page, the place, the text and both kinds of offsets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from modu_desktop.cli import main
from tests.helpers.cli import cli_args


def test_hits_are_listed_under_each_page_title_with_their_place(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "ko", *cli_args(cli_env, "docs", "search", "과정")]) == 0
    out = capsys.readouterr().out
    assert "모집 안내와 현황 (docs/04-admission.md)\n" in out  # the page by its title
    assert "  좌우 분할 패널 › 왼쪽 › 항목 1 › 이름: 기초 [과정]\n" in out
    assert "  표 › 행 1 › 과정: **기초 [과정]**\n" in out  # a data table's cell, as written
    assert out.rstrip().endswith("곳을 찾았습니다.") and "4개 문서에서" in out


def test_json_gives_the_page_the_place_the_text_and_where_the_words_are(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    assert main(cli_args(sb, "docs", "search", "student", "--json")) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["total"] == found["pageTotal"] == 1
    assert found["unread"] == [] and not found["truncated"]
    (page,) = found["pages"]
    assert (page["docId"], page["path"], page["title"]) == (
        "03-strategy",
        "docs/03-strategy.md",
        "비전과 추진 전략",
    )
    (hit,) = page["hits"]
    assert hit["place"] == {"card": "block", "block": "strategy", "item": 1, "key": "title"}
    assert hit["placeText"] == "Strategy cards › Item 1 › Title"
    assert hit["text"][hit["start"] : hit["end"]] == "Student"
    text = sb.read_file(page["path"]).decode()
    assert "".join(text[a:b] for a, b in hit["source"]) == "Student"


def test_options_and_no_hits(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    assert main(cli_args(sb, "docs", "search", "student", "--case-sensitive")) == 1
    captured = capsys.readouterr()
    assert captured.err == "error: No page has “student”.\n"
    assert main(cli_args(sb, "docs", "search", "Student", "--case-sensitive", "--json")) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 1
    # "과정" glued to 교육 (교육과정) is not a whole word; "과정" alone is
    assert main(cli_args(sb, "docs", "search", "과정", "--json")) == 0
    every = json.loads(capsys.readouterr().out)["total"]
    assert main(cli_args(sb, "docs", "search", "과정", "--whole-word", "--json")) == 0
    whole = json.loads(capsys.readouterr().out)
    assert 0 < whole["total"] < every
    assert all(
        not hit["text"][: hit["start"]][-1:].isalnum() for p in whole["pages"] for hit in p["hits"]
    )
    assert main(["--lang", "ko", *cli_args(sb, "docs", "search", "없는 낱말")]) == 1
    assert capsys.readouterr().err == "error: “없는 낱말”이 들어 있는 문서가 없습니다.\n"
    assert main(cli_args(sb, "docs", "search", "없는 낱말", "--json")) == 1
    assert json.loads(capsys.readouterr().out)["pages"] == []
