"""The suite's logfail guard: an undeclared WARNING fails the test; a declared one does not."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]


def test_an_undeclared_warning_fails_the_test(pytester: pytest.Pytester) -> None:
    pytester.makeconftest((Path(__file__).parent / "conftest.py").read_text("utf-8"))
    pytester.makepyfile(
        test_sample="""
        import logging
        import pytest

        def test_warns():
            logging.getLogger("x").warning("something odd")

        @pytest.mark.expect_log
        def test_warns_declared():
            logging.getLogger("x").warning("expected")

        @pytest.mark.expect_log("x: expected")
        def test_warns_matching_pattern():
            logging.getLogger("x").warning("expected too")

        @pytest.mark.expect_log("another logger")
        def test_warns_other_than_declared():
            logging.getLogger("x").warning("surprise")

        def test_warns_with_caplog(caplog):
            logging.getLogger("x").error("asserted")
            assert "asserted" in caplog.text

        def test_info_is_fine():
            logging.getLogger("x").info("fine")
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")
    # The failing test's call passes; the guard fails it at teardown.
    result.assert_outcomes(passed=6, errors=2)
    result.stdout.fnmatch_lines(
        ["*unexpected log records*", "*WARNING x: something odd*", "*WARNING x: surprise*"]
    )


def test_info_records_do_not_trip_the_guard() -> None:
    logging.getLogger(__name__).info("not a warning")
