"""The core returns codes and fields; every sentence a person reads lives in the catalogues.

Three checks that fail when a core module starts handing a person an English sentence:

* a result's field that carries words for people (``message``, ``reason``, ``detail`` …) is
  typed as a ``Text`` (worded through the catalogues), an enum or a tuple of them — never a
  plain ``str`` — unless it is on the short list below, each with why it is not for people;
* nothing in the core words a ``Text`` in English itself (``.en``) except for the log and the
  few ``message`` properties kept as the English copy for logs and tests;
* every lock result's code has a sentence, with Korean in the catalogue, in both languages.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib
import inspect
import pkgutil
import re
import types
import typing
from pathlib import Path
from typing import Any

import pytest

import modu_desktop.core as core
from modu_desktop.core.locks import news
from modu_desktop.core.locks.model import (
    AcquireOutcome,
    HeartbeatOutcome,
    HeldLock,
    LockCode,
    LockRecord,
    LockStatus,
    LockView,
    ReleaseOutcome,
)
from modu_desktop.core.locks.results import (
    AcquireResult,
    HeartbeatResult,
    ReleaseResult,
    VerifyResult,
)
from modu_desktop.core.text import Text
from modu_desktop.i18n import catalogue

CORE = Path(core.__file__).resolve().parent

# Names of fields that carry words for a person.
PEOPLE_WORDS = re.compile(
    r"^(message|reason|why|detail|explanation|hint|note|last_error|error|problem)$"
    r"|_(message|reason|why|unavailable|problem|explanation)$"
)

# Fields with such a name that are not sentences for people, and why.
NOT_FOR_PEOPLE = {
    "documents.history.Version.message": "a commit's own message, as its author wrote it",
    "github.types.Commit.message": "a commit's own message, as its author wrote it",
    "saving.queue_item.SpoolItem.message": "the commit message the queued save will send",
    "saving.queue_item.SpoolItem.last_error": "the last send error, for the log",
    "saving.queue_item.Retryable.reason": "why a send will be tried again, for the log",
    "saving.queue_item.Uncertain.reason": "why a send's outcome is unknown, for the log",
    "saving.queue_item.Fatal.reason": "why a send failed for good, for the log",
    "documents.model.SaveConflict.reason": "GitHub's own answer to the write, for the log",
    "saving.queue_changes.ChangeItem.last_error": "the last send error, for the log",
    "brochure.block_model.Problem.reason": "a code the page editor words (“unclosed” …)",
    "edit_session.events.NotSaved.reason": "a code the window words (“lock_lost” …)",
    "edit_session.events.OpenFailed.reason": "a code the window words (“contended” …)",
    "publish.check.jsexpr.ExprVerdict.detail": "the expression parser's detail, for the log",
    "publish.status.DocStatus.detail": "a code (“no-run”, “skipped” …) the window words",
    "publish.status._Doc.detail": "a code (“no-run”, “skipped” …) the window words",
    "locks.model.HeldLock.last_error": "the last missed heartbeat's error, for the log",
    "locks.leftover.Leftover.message": "what was done with a crashed session's lock, for the log",
    "support.updates.UpdateCheck.error": "why the update check failed, for the log",
    "account.auth.SignInResult.message": "worded through tr, in the current language, when made",
    "atomic.FileProblem.problem": "what is wrong with a damaged file set aside, for the log",
    "brochure.frontmatter._Line.problem": "why a front matter line is unreadable, for the log",
}

# ``.en`` outside a log call: the English copy a result keeps for logs and tests.
ENGLISH_COPIES = {
    ("pictures/uploads.py", "message"),
    ("docops/result.py", "message"),
    ("account/org.py", "message"),
    ("text.py", "__str__"),
    ("locks/results.py", "__init__"),  # LockFailure: an exception's str() is for the log
}


def _core_modules() -> list[types.ModuleType]:
    return [
        importlib.import_module(m.name)
        for m in pkgutil.walk_packages(core.__path__, "modu_desktop.core.")
    ]


def _people_fields() -> list[tuple[str, Any]]:
    """(module-relative name, type) of every dataclass field in the core that carries words."""
    found: list[tuple[str, Any]] = []
    for mod in _core_modules():
        for name, cls in vars(mod).items():
            if not (inspect.isclass(cls) and cls.__module__ == mod.__name__):
                continue
            if not dataclasses.is_dataclass(cls):
                continue
            for f in dataclasses.fields(cls):
                if PEOPLE_WORDS.match(f.name):
                    where = f"{mod.__name__.removeprefix('modu_desktop.core.')}.{name}.{f.name}"
                    found.append((where, _field_type(mod, f)))
    return found


def _field_type(mod: types.ModuleType, f: dataclasses.Field[Any]) -> Any:
    """A field's type, evaluated in its module (names imported only for type checking are
    looked up where they live)."""
    if not isinstance(f.type, str):
        return f.type
    namespace = dict(vars(mod))
    namespace.update({"Text": Text, "Any": Any})
    return eval(f.type, namespace)  # noqa: S307 - an annotation of our own source


def _worded(tp: Any) -> bool:
    """Text, an enum, an exception (worded by its user_text), None, or unions and tuples of
    those: nothing that is an English sentence already."""
    if tp is type(None) or tp is Text:
        return True
    if inspect.isclass(tp) and issubclass(tp, enum.Enum | BaseException):
        return True
    args = typing.get_args(tp)
    if args and (typing.get_origin(tp) in (typing.Union, types.UnionType, tuple)):
        return all(_worded(a) for a in args if a is not Ellipsis)
    return False


def test_result_fields_for_people_are_texts_or_codes() -> None:
    fields = _people_fields()
    assert len(fields) > 20  # the walk found the core's results
    plain = [where for where, tp in fields if not _worded(tp) and where not in NOT_FOR_PEOPLE]
    assert not plain, (
        "these fields hand a person a plain string: make them a Text (or a code the screens "
        "word), or say in NOT_FOR_PEOPLE why no person reads them:\n" + "\n".join(plain)
    )
    listed = {where for where, _tp in fields}
    assert not set(NOT_FOR_PEOPLE) - listed, "NOT_FOR_PEOPLE names fields that are gone"


def test_a_plain_string_reason_fails_the_check() -> None:
    """The check above catches what it is meant to: a result with ``reason: str``."""

    @dataclasses.dataclass
    class Refused:
        reason: str

    @dataclasses.dataclass
    class Told:
        reason: Text
        message: LockCode | None = None

    assert not _worded(typing.get_type_hints(Refused)["reason"])
    assert all(_worded(tp) for tp in typing.get_type_hints(Told).values())


def _is_log_call(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    p = parents.get(node)
    while p is not None:
        if isinstance(p, ast.Call) and isinstance(p.func, ast.Attribute):
            owner = p.func.value
            if isinstance(owner, ast.Name) and owner.id in ("log", "logger", "logging"):
                return True
        p = parents.get(p)
    return False


def _function_of(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str | None:
    p = parents.get(node)
    while p is not None:
        if isinstance(p, ast.FunctionDef | ast.AsyncFunctionDef):
            return p.name
        p = parents.get(p)
    return None


def test_the_core_never_words_a_text_in_english_for_a_person() -> None:
    bad = []
    for path in sorted(CORE.rglob("*.py")):
        rel = path.relative_to(CORE).as_posix()
        tree = ast.parse(path.read_text("utf-8"))
        parents = {ch: node for node in ast.walk(tree) for ch in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr == "en"):
                continue
            if _is_log_call(node, parents) or (rel, _function_of(node, parents)) in ENGLISH_COPIES:
                continue
            bad.append(f"{rel}:{node.lineno}")
    assert not bad, "the core hands on the Text; the screen or the CLI words it:\n" + "\n".join(bad)


# -------------------------------------------------------------------------- lock results

NOW = 1_780_000_000.0
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _view(status: LockStatus, who: str = "editor2") -> LockView:
    rec = LockRecord("d", who, int(NOW - 600), int(NOW - 30), session_id="s9")
    return LockView("d", status, "sha", rec, NOW, 900)


def _fields_for(code: LockCode) -> dict[str, object]:
    return {
        "who": news.holder_name("editor2"),
        "login": "editor1",
        "where": Text("on another computer"),
        "since": Text("{clock} ({ago})", clock="08:29", ago=Text("just now")),
        "misses": 2,
        "minutes": 5,
    }


def _results(code: LockCode) -> list[Any]:
    view = _view(LockStatus.HELD)
    fields = _fields_for(code)
    err = OSError("connection reset")
    held = HeldLock("d", "sha", int(NOW), int(NOW))
    return [
        AcquireResult(AcquireOutcome.FAILED, "d", view=view, code=code, error=err, fields=fields),
        HeartbeatResult(
            HeartbeatOutcome.MISSED, held, view=view, code=code, error=err, fields=fields
        ),
        ReleaseResult(ReleaseOutcome.FAILED, "d", view=view, code=code, error=err, fields=fields),
        VerifyResult(False, "d", code, view=view, error=err, fields=fields),
    ]


@pytest.mark.parametrize("code", list(LockCode), ids=lambda c: c.value)
def test_every_lock_code_is_said_in_both_languages(code: LockCode) -> None:
    assert code in news.SENTENCES
    assert news.SENTENCES[code].source in catalogue() or code is LockCode.HELD_BY_OTHER
    for res in _results(code):
        en, ko = res.text.en, res.text.ko
        assert en and not HANGUL.search(en), (code, en)
        assert HANGUL.search(ko) and ko != en, (code, ko)
        # No English words left in the Korean, beyond the names and the error's own words.
        rest = re.sub(r"editor\d|“d”|connection reset|\d\d:\d\d", "", ko)
        assert not re.search(r"[A-Za-z]{3,}", rest), (code, ko)


def test_every_result_carries_a_code_even_when_made_without_one() -> None:
    held = HeldLock("d", "sha", int(NOW), int(NOW))
    assert AcquireResult(AcquireOutcome.BLOCKED, "d", view=_view(LockStatus.HELD)).code is (
        LockCode.HELD_BY_OTHER
    )
    assert HeartbeatResult(HeartbeatOutcome.OK, held).code is LockCode.RENEWED
    assert ReleaseResult(ReleaseOutcome.ALREADY_GONE, "d").code is LockCode.NOT_LOCKED
    codes = {LockCode(c.value) for c in LockCode}
    assert len(codes) == len({c.value for c in LockCode})  # one string per code


def test_a_screen_words_a_result_with_the_page_title() -> None:
    lost = HeartbeatResult(
        HeartbeatOutcome.LOST,
        HeldLock("03-strategy", "sha", int(NOW), int(NOW)),
        view=_view(LockStatus.HELD),
        code=LockCode.TAKEN_FROM_YOU,
        fields=_fields_for(LockCode.TAKEN_FROM_YOU),
    )
    titled = news.with_title(lost.text, "비전과 추진 전략")
    assert titled.en == (
        "@editor2 took over your lock on “비전과 추진 전략” at 08:29 (just now). "
        "The document is read-only now."
    )
    assert titled.ko == (
        "08:29 (방금)에 editor2 님이 “비전과 추진 전략” 편집 권한을 가져갔습니다. "
        "이제 이 문서는 읽기 전용입니다."
    )
