"""One state per document for a window: a save's deploy, the site's stop (which page, whose),
and the end of the stop when a later build succeeds."""

from __future__ import annotations

from dataclasses import dataclass

from modu_desktop.core.publish.blame import BrokenPage
from modu_desktop.core.publish.status import EditPhase, PublishBoard, PublishPhase, SiteStop


@dataclass
class Run:
    status: str
    conclusion: str | None = None
    head_sha: str | None = None
    id: int = 1


KIMS = BrokenPage("docs/03-strategy.md", "03-strategy", "비전과 추진 전략", 42, 4, "…", "kim")


def _stop(run_id: int, *pages: BrokenPage) -> SiteStop:
    return SiteStop(run_id, f"https://example/runs/{run_id}", pages, failure=object())


def test_a_save_held_back_by_another_page_is_on_hold_not_failed() -> None:
    lee = PublishBoard("lee")
    lee.saved("05-notes", "c2")
    assert lee.status("05-notes").publishing is PublishPhase.WAITING
    lee.observe("c2", [Run("in_progress", id=11)])
    lee.observe("c2", [Run("completed", "failure", id=11)])
    assert lee.status("05-notes").publishing is PublishPhase.CHECKING  # the log is being read
    lee.site_stopped(_stop(11, KIMS))
    st = lee.status("05-notes")
    assert st.publishing is PublishPhase.ON_HOLD and st.breaks_site is None
    assert lee.stop is not None and lee.stop.mine("lee") == ()


def test_the_breaking_page_is_failed_for_its_saver() -> None:
    kim = PublishBoard("kim")
    kim.saved("03-strategy", "c1")
    kim.observe("c1", [Run("completed", "failure", id=10)])
    kim.site_stopped(_stop(10, KIMS))
    st = kim.status("03-strategy")
    assert st.publishing is PublishPhase.FAILED and st.breaks_site == KIMS
    assert kim.stop is not None and kim.stop.mine("KIM") == (KIMS,)


def test_a_later_successful_build_ends_the_stop_and_publishes_earlier_saves() -> None:
    lee = PublishBoard("lee")
    seen: list[PublishPhase] = []
    lee.subscribe(lambda: seen.append(lee.status("05-notes").publishing))
    lee.saved("05-notes", "c2")
    lee.observe("c2", [Run("completed", "failure", id=11)])
    lee.site_stopped(_stop(11, KIMS))
    lee.site_built(9)  # an older build finishing late changes nothing
    assert lee.stop is not None and lee.status("05-notes").publishing is PublishPhase.ON_HOLD
    lee.site_built(12)  # kim's fix
    assert lee.stop is None
    assert lee.status("05-notes").publishing is PublishPhase.PUBLISHED
    assert seen[-1] is PublishPhase.PUBLISHED
    lee.site_stopped(_stop(11, KIMS))  # the old failure, read late, does not come back
    assert lee.stop is None


def test_an_own_successful_build_ends_the_stop() -> None:
    kim = PublishBoard("kim")
    kim.saved("03-strategy", "c1")
    kim.observe("c1", [Run("completed", "failure", id=10)])
    kim.site_stopped(_stop(10, KIMS))
    kim.saved("03-strategy", "c3")  # the fix
    kim.observe("c3", [Run("completed", "success", id=12)])
    assert kim.stop is None
    assert kim.status("03-strategy").publishing is PublishPhase.PUBLISHED


def test_a_newer_failure_replaces_the_stop_an_older_one_does_not() -> None:
    b = PublishBoard("lee")
    b.site_stopped(_stop(11, KIMS))
    other = BrokenPage("docs/04.md", "04", "모집 안내", 3, 1, "…", "park")
    b.site_stopped(_stop(13, other))
    assert b.stop is not None and b.stop.pages == (other,)
    b.site_stopped(_stop(12, KIMS))
    assert b.stop.pages == (other,)


def test_a_log_not_read_yet_says_checking_not_failed() -> None:
    b = PublishBoard("lee")
    b.saved("05-notes", "c2")
    b.observe("c2", [Run("completed", "failure", id=11)])
    b.site_stopped(SiteStop(11, None, (), failure=None))
    assert b.status("05-notes").publishing is PublishPhase.CHECKING


def test_the_editor_side_is_kept_per_document() -> None:
    b = PublishBoard("kim")
    changes: list[int] = []
    b.subscribe(lambda: changes.append(1))
    b.set_phase("a", EditPhase.UNSAVED)
    b.set_phase("a", EditPhase.UNSAVED)  # no change, no news
    b.set_phase("b", EditPhase.READ_ONLY)
    assert b.status("a").phase is EditPhase.UNSAVED and b.status("a").unsaved
    assert b.status("b").phase is EditPhase.READ_ONLY and not b.status("b").unsaved
    assert len(changes) == 2
    assert b.status("c").phase is None and b.status("c").publishing is PublishPhase.NONE


def test_a_later_failure_of_the_same_page_says_why_at_once_while_its_log_is_read() -> None:
    """kim saved the broken page again (or once more from another window): her new build
    failed too. The stop already explained is said at once, not "finding out why" meanwhile."""
    kim = PublishBoard("kim")
    kim.saved("03-strategy", "c1")
    kim.observe("c1", [Run("completed", "failure", id=10)])
    kim.site_stopped(_stop(10, KIMS))
    kim.saved("03-strategy", "c2")
    kim.observe("c2", [Run("completed", "failure", id=12)])
    status = kim.status("03-strategy")
    assert status.publishing is PublishPhase.FAILED and status.breaks_site == KIMS
    assert kim.open_failures() == ["c2"]  # its own log is still to be read


def test_the_pages_of_one_commit_are_published_together_and_told_as_one() -> None:
    """A replacement across pages is one commit: every page of it follows that one build,
    and the last save is the change, not its last page."""
    kim = PublishBoard("kim")
    kim.saved("03-strategy", "c1")
    kim.saved("05-notes", "c1")
    assert kim.last_save == ("03-strategy", "05-notes")
    kim.observe("c1", [Run("in_progress", head_sha="c1", id=10)])
    assert {kim.status(d).publishing for d in kim.last_save} == {PublishPhase.BUILDING}
    kim.observe("c1", [Run("completed", "success", head_sha="c1", id=10)])
    assert {kim.status(d).publishing for d in kim.last_save} == {PublishPhase.PUBLISHED}
    last = kim.last_save_status()
    assert last is not None and last.publishing is PublishPhase.PUBLISHED
    kim.saved("05-notes", "c2")  # one of them saved again, alone
    assert kim.last_save == ("05-notes",)
    assert kim.status("03-strategy").publishing is PublishPhase.PUBLISHED
    assert kim.status("05-notes").publishing is PublishPhase.WAITING
    kim.forget("05-notes")
    assert kim.last_save == () and kim.last_save_status() is None


def test_a_change_of_many_pages_that_breaks_the_site_is_told_by_its_breaking_page() -> None:
    kim = PublishBoard("kim")
    for doc_id in ("05-notes", "03-strategy", "04-admission"):
        kim.saved(doc_id, "c1")
    kim.observe("c1", [Run("completed", "failure", head_sha="c1", id=10)])
    assert kim.open_failures() == ["c1"]  # one commit, one log to read
    kim.site_stopped(_stop(10, KIMS))
    assert kim.status("05-notes").publishing is PublishPhase.ON_HOLD
    last = kim.last_save_status()
    assert last is not None and last.publishing is PublishPhase.FAILED
    assert last.breaks_site == KIMS
