"""No fixed waits in the tests: a test waits for a condition (``qtbot.waitUntil``,
``waitSignal``, a loop that polls with a deadline) or moves an injected clock, never for a
number of milliseconds to pass. A fixed wait is either too short on a busy machine (a flaky
test) or longer than needed everywhere (a slow suite).

Found by reading every test module: ``qtbot.wait(N)``, ``QTest.qWait(N)``, ``time.sleep(N)`` and
``asyncio.sleep(N)`` with a constant N (``asyncio.sleep(0)`` only yields, and is fine). A call
inside a ``for`` or ``while`` loop is the step of a poll and is fine; so are the few places
listed in ``ALLOWED``, each with why no condition can replace it."""

from __future__ import annotations

import ast

from tests.helpers.paths import CHECKOUT

TESTS = CHECKOUT / "tests"

# (path under the checkout, the function the wait is in): why it stays.
ALLOWED = {
    ("tests/sandbox/test_contract.py", "pace"): (
        "live runs against api.github.com only: GitHub asks for a second between writes"
    ),
    ("tests/ui/preview/test_pane.py", "settled"): (
        "the poll step of a waitUntil: the reader's place must read the same four times over "
        "a span of time while the page's fonts and lazy segments arrive"
    ),
    ("tests/e2e/test_nothing_lost.py", "_let_the_editor_take_the_keyboard"): (
        "a real process typed into through X: which widget has the keyboard cannot be seen "
        "from outside the app until it has a read-only probe to ask"
    ),
    ("tests/core/documents/test_store.py", "handle_async_request"): (
        "a fake transport's answer time, so that requests overlap: not a wait for anything"
    ),
}


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _constant(node: ast.expr) -> float | None:
    """The number ``node`` always is, or None when it is not a constant."""
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    return float(value) if isinstance(value, int | float) else None


def _is_fixed_wait(call: ast.Call) -> bool:
    name = _dotted(call.func)
    if not call.args:
        return False
    amount = _constant(call.args[0])
    if amount is None:
        return False
    if name.endswith("qtbot.wait") or name.endswith("qWait"):
        return True
    if name in ("time.sleep", "sleep"):
        return True
    return name == "asyncio.sleep" and amount != 0


class _Finder(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.functions: list[str] = []
        self.loops = 0
        self.found: list[str] = []

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node.name)
        loops, self.loops = self.loops, 0  # a loop around a function's definition is not a poll
        self.generic_visit(node)
        self.loops = loops
        self.functions.pop()

    visit_FunctionDef = _function  # noqa: N815 - ast.NodeVisitor's names
    visit_AsyncFunctionDef = _function  # noqa: N815

    def _loop(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        self.loops += 1
        self.generic_visit(node)
        self.loops -= 1

    visit_For = _loop  # noqa: N815
    visit_AsyncFor = _loop  # noqa: N815
    visit_While = _loop  # noqa: N815

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        function = self.functions[-1] if self.functions else "<module>"
        if _is_fixed_wait(node) and not self.loops and (self.path, function) not in ALLOWED:
            self.found.append(f"{self.path}:{node.lineno} in {function}: {ast.unparse(node)}")
        self.generic_visit(node)


def fixed_waits(source: str, path: str) -> list[str]:
    finder = _Finder(path)
    finder.visit(ast.parse(source))
    return finder.found


def test_no_test_waits_a_fixed_time() -> None:
    found: list[str] = []
    for file in sorted(TESTS.rglob("*.py")):
        relative = file.relative_to(CHECKOUT).as_posix()
        if relative.startswith("tests/fixtures/"):
            continue
        found += fixed_waits(file.read_text("utf-8"), relative)
    assert found == [], "wait for a condition or move a clock instead:\n" + "\n".join(found)


def test_the_lint_tells_a_fixed_wait_from_a_poll() -> None:
    source = """
import asyncio, time

def test_waits(qtbot, ui):
    qtbot.wait(3100)
    ui.qtbot.wait(50)
    time.sleep(0.5)

async def later():
    await asyncio.sleep(0.02)
    await asyncio.sleep(0)  # a yield, not a wait

def polls(qtbot, done):
    while not done():
        time.sleep(0.05)
    for _ in range(10):
        qtbot.wait(10)
    qtbot.waitUntil(done)
    time.sleep(step)
"""
    found = fixed_waits(source, "tests/example.py")
    assert [line.split(": ", 1)[1] for line in found] == [
        "qtbot.wait(3100)",
        "ui.qtbot.wait(50)",
        "time.sleep(0.5)",
        "asyncio.sleep(0.02)",
    ]


def test_every_allowed_wait_is_still_there() -> None:
    for (path, function), why in ALLOWED.items():
        assert why
        source = (CHECKOUT / path).read_text("utf-8")
        assert f"def {function}(" in source, f"{path}: no {function} any more; drop it"
