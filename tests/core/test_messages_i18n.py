"""Every error's and result's sentence comes out in i18n's current language (one mechanism:
``modu_desktop.i18n``), and ``core.lockwords`` says who holds a lock the same way everywhere."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from modu_desktop import i18n
from modu_desktop.core.account.auth import DeviceFlowError
from modu_desktop.core.github import errors
from modu_desktop.core.locks import words
from modu_desktop.core.locks import words as lock_words
from modu_desktop.core.locks.model import LockStatus, LockView
from modu_desktop.core.locks.wire import InvalidDocId, LockRecord
from modu_desktop.core.locks.words import Holding, State
from tests.helpers.lang import in_lang, speaking

HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _all_errors() -> list[Any]:
    samples: list[Any] = [
        errors.GitHubError(500, "x"),
        errors.BadCredentials(401, "x"),
        errors.PermissionDenied(403, "x"),
        errors.NotFound(404, "x"),
        errors.GitHubConflict(409, "x"),
        errors.ShaMissing(422, "x"),
        errors.RepositoryEmpty(409, "x"),
        errors.ValidationFailed(422, "x"),
        errors.RateLimited(403, "x"),
        errors.RateLimited(403, "x", retry_at=time.time() + 290),
        errors.ServerError(502, "x"),
        errors.NetworkError("x", kind="timeout"),
        errors.NetworkError("x", kind="connection"),
        errors.WriteUncertain("x"),
        errors.BranchMoved(409, "is at a but expected b", tries=5),
        errors.NotFastForward(422, "Update is not a fast forward"),
        InvalidDocId("docId is empty"),
    ]
    samples += [
        DeviceFlowError(k) for k in ("expired", "denied", "disabled", "bad_client", "network", "?")
    ]
    return samples


def test_every_error_class_has_a_sample() -> None:
    covered = {type(e) for e in _all_errors()}
    assert {getattr(errors, name) for name in errors.__all__} <= covered


@pytest.mark.parametrize("exc", _all_errors(), ids=lambda e: f"{type(e).__name__}")
def test_each_error_speaks_the_current_language(exc: Any) -> None:
    en = exc.user_message()  # tests speak English by default
    assert en and not HANGUL.search(en) and en == exc.user_text().en
    with speaking("ko"):
        ko = exc.user_message()
    assert HANGUL.search(ko) and ko == exc.user_text().ko and ko != en
    assert not re.search(r"[A-Za-z]{4,}", re.sub(r"GitHub|client id|docs", "", ko)), ko
    i18n.set_language("en")
    assert exc.user_message() == en


def test_distinct_errors_say_distinct_things_in_both_languages() -> None:
    samples = _all_errors()
    for lang in ("en", "ko"):
        texts = [in_lang(lang, e.user_message) for e in samples]
        assert len(set(texts)) == len(texts), lang


def test_rate_limit_counts_minutes_in_both_languages() -> None:
    exc = errors.RateLimited(403, "x", retry_at=time.time() + 290)
    assert "about 5 minute(s)" in exc.user_message()
    assert "약 5분 뒤" in in_lang("ko", exc.user_message)


def test_a_document_name_error_says_the_plain_reason() -> None:
    from modu_desktop.core.locks.wire import validate_doc_id

    with pytest.raises(InvalidDocId) as info:
        validate_doc_id("a/../b")
    assert "'..'" in str(info.value)  # the technical text for logs
    assert "'..'" in info.value.user_message() and "another folder" in info.value.user_message()
    assert in_lang("ko", info.value.user_message) == (
        "문서 이름이 올바르지 않습니다: '..' 같은 경로로 다른 폴더를 가리킬 수 없습니다."
    )


# -------------------------------------------------------------------------- lock words

NOW = 1_780_000_000.0


def _holding(who: str, state: State = State.OTHER) -> Holding:
    return Holding(who, NOW - 600, NOW - 30, NOW, state)


def test_times_are_one_format() -> None:
    clock = words.clock(NOW - 30, NOW)
    assert re.fullmatch(r"\d\d:\d\d", clock)
    assert words.when(NOW - 30, NOW).en == f"{clock} (just now)"
    assert words.when(NOW - 30, NOW).ko == f"{clock} (방금)"
    assert words.when(NOW - 600, NOW).ko.endswith("(10분 전)")
    assert words.when(NOW - 3 * 3600, NOW).en.endswith("(3 h ago)")
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d \(", words.when(NOW - 30 * 3600, NOW).en)
    assert words.when(None, NOW).en == "?"


@pytest.mark.parametrize("who", ["editor2", "김민준", "이서"])
def test_korean_lock_sentences_read_right_after_any_name(who: str) -> None:
    """The holder is "{who} 님" (polite; the particle after 님 is 이/을 whatever the name ends
    with), so a name with or without a final consonant never takes a wrong particle."""
    h = _holding(who)
    with speaking("ko"):
        texts = [
            words.badge(h)(),
            words.tooltip(h)(),
            words.dialog_head(h, "추진 전략")(),
            words.read_only_banner(h)(),
            words.line(h, "03-strategy")(),
            words.tooltip(_holding(who, State.STALE))(),
        ]
    assert texts[0].startswith(f"{who} · ") and texts[0].endswith("부터")
    for t in texts[1:]:
        assert f"{who} 님이 " in t, t
        for wrong in ("가", "이", "는", "은", "를", "을"):
            assert f"{who}{wrong} " not in t, t
    assert texts[2] == f"지금 {who} 님이 “추진 전략”을 편집하고 있습니다."
    assert "마지막 접속: " in texts[1] and "(방금)" in texts[1]


@pytest.mark.parametrize(
    ("title", "particle"), [("이서", "를"), ("김민준", "을"), ("editor2", "를")]
)
def test_the_document_title_takes_its_own_particle(title: str, particle: str) -> None:
    head = in_lang("ko", words.dialog_head(_holding("editor2"), title))
    assert f"“{title}”{particle} 편집하고" in head


def test_each_screen_keeps_its_variant() -> None:
    h = _holding("editor2")
    assert words.badge(h).en == f"editor2 · {words.clock(NOW - 600, NOW)}"
    assert words.tooltip(h).en.startswith("editor2 is editing since ")
    assert "last sign of life" in words.tooltip(h).en
    assert words.line(h, "전략").en.startswith("@editor2 is editing “전략” since ")
    assert words.badge(_holding("editor2", State.STALE)).en == "editor2 · inactive"
    assert words.badge(_holding("me", State.MINE_HERE)).ko == "나 (이 창)"
    details = in_lang("ko", words.dialog_details(h))
    assert details.startswith("편집 시작: ") and "\n마지막 접속: " in details


def test_a_lock_view_is_told_the_same_way() -> None:
    rec = LockRecord("03-strategy", "김민준", int(NOW - 600), int(NOW - 30))
    view = LockView("03-strategy", LockStatus.HELD, "sha", rec, NOW, 900)
    line = words.line(Holding.of(view), "03-strategy")
    assert lock_words.describe(view) == line
    assert line.ko.startswith("@김민준 님이 “03-strategy” 문서를 ")
    from modu_desktop.core.docops.ops import lock_holder_text

    assert lock_holder_text(view, "03-strategy") == line


def test_durations_follow_the_language() -> None:
    assert words.format_age(90) == "1 min"
    assert in_lang("ko", lambda: words.format_age(90000)) == "1일 1시간"
