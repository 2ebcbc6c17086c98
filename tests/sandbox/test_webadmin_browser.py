"""The real web admin page, unmodified, in headless Chromium, beside the desktop core, both on
one sandbox. Opt-in: skips with the reason when Chromium, chromedriver, Node (for
the page's CDN files) or the page is missing; CI installs them. See `webadmin_browser.py` for
how the page reaches the sandbox without any request being intercepted or fixed up.

Scenarios: the web admin acquires, heartbeats and releases while the desktop watches; the
desktop takes a lock over and the web admin notices at its next heartbeat; the desktop holds a
lock, the web admin sees who, takes it over, and the desktop notices at its next heartbeat; a
page the desktop made unpublished is read by the web admin (and published by its save).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import pytest

from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import AcquireOutcome, HeartbeatOutcome, LockStatus
from modu_desktop.core.locks.wire import (
    acquire_message,
    heartbeat_message,
    lock_path,
    release_message,
)
from modu_desktop.sandbox import Sandbox, SandboxUser
from tests.helpers.webadmin_browser import browser_against, require_browser

pytestmark = pytest.mark.timeout(300)

WEB = SandboxUser("webeditor", "tok-web", orgs=("pnuai",))
DESK = SandboxUser("deskeditor", "tok-desk", orgs=("pnuai",))
T = TypeVar("T")


class Desktop:
    """The desktop side through modu_desktop.core (the same LockManager the app uses)."""

    def __init__(self, sb: Sandbox) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = GitHubClient(sb.api_url, DESK.token, RepoRef("pnuai", "PNU-Modu", "main"))
        self.locks = LockManager(
            self.client, DESK.login, "desk-session", self.client.clock, host="desk-host"
        )

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        closer = getattr(self.client, "aclose", None)
        if closer is not None:
            self.run(closer())
        self.loop.close()


def until(check: Callable[[], T], what: str, timeout: float = 20.0) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.fixture
def world(tmp_path: Any) -> Iterator[tuple[Sandbox, Any, str, Desktop]]:
    require_browser()
    sb = Sandbox(tmp_path / "repo", users=[WEB, DESK], org="pnuai").start()
    desk = Desktop(sb)
    try:
        with browser_against(sb.port) as (driver, url):
            yield sb, driver, url, desk
            log = [e["message"] for e in driver.get_log("browser")]
            # A browser-side CORS refusal, or an API request that failed, shows up here (the
            # lock checks' 404s for a free document are the protocol working).
            failed = [
                m
                for m in log
                if "CORS policy" in m or ("api.github.com" in m and "status of 404" not in m)
            ]
            assert not failed, failed
            # The browser's own preflights reached the sandbox (nothing answered them for it).
            routes = sb.stats()["by_route"]
            assert routes.get("OPTIONS /repos/{owner}/{repo}/contents/{path}", 0) >= 1
            assert routes.get("OPTIONS /user", 0) >= 1
    finally:
        desk.close()
        sb.stop()


def sign_in(driver: Any, url: str) -> None:
    from selenium.webdriver.common.by import By

    driver.get(url)
    driver.find_element(By.ID, "input-token").send_keys(WEB.token)
    driver.find_element(By.ID, "btn-login").click()
    until(lambda: driver.find_element(By.ID, "screen-main").is_displayed(), "the main screen")
    until(
        lambda: driver.find_elements(By.XPATH, "//button[contains(@onclick, 'openEditModal')]"),
        "the document list",
    )
    avatar = driver.find_element(By.ID, "nav-avatar")
    # The avatar really loaded (an <img> that failed has naturalWidth 0).
    until(
        lambda: driver.execute_script("return arguments[0].naturalWidth", avatar) == 40,
        "the avatar image",
    )


def open_doc(driver: Any, doc: str) -> None:
    from selenium.webdriver.common.by import By

    xpath = f"//button[contains(@onclick, \"openEditModal('{doc}.md'\")]"
    driver.find_element(By.XPATH, xpath).click()


def editor_open(driver: Any) -> bool:
    from selenium.webdriver.common.by import By

    return bool(driver.find_element(By.ID, "modal-edit").is_displayed())


def close_editor(driver: Any) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, "#modal-edit .modal-close").click()


def run_heartbeat(driver: Any) -> None:
    """The page's next heartbeat, now (see CLOCK_SHIM)."""
    assert driver.execute_script("return window.__moduHeldIntervals()") == 1
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.__moduRunIntervals().then(done, e => done(String(e)));"
    )


def alert_text(driver: Any) -> str:
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    alert = WebDriverWait(driver, 15).until(EC.alert_is_present())
    text = str(alert.text)
    alert.accept()
    return text


def lock_json(sb: Sandbox, doc: str) -> dict[str, Any] | None:
    raw = sb.read_file(lock_path(doc))
    return None if raw is None else json.loads(raw)


def lock_messages(sb: Sandbox) -> list[str]:
    return [c["message"] for c in sb.commits(".locks")]


def test_web_admin_and_desktop_share_locks(world: tuple[Sandbox, Any, str, Desktop]) -> None:
    sb, driver, url, desk = world
    sign_in(driver, url)

    # 1. The web admin acquires ("sha": null, as it always sends for a new lock).
    open_doc(driver, "01-welcome")
    until(lambda: lock_json(sb, "01-welcome"), "the web admin's lock")
    until(lambda: editor_open(driver), "the editor")
    first = lock_json(sb, "01-welcome")
    assert first is not None and first["editingBy"] == WEB.login
    assert lock_messages(sb)[0] == f"system: acquire lock for 01-welcome by @{WEB.login} [skip ci]"
    view = desk.run(desk.locks.inspect("01-welcome"))
    assert view.status is LockStatus.HELD and view.holder == WEB.login

    # ... heartbeats (the desktop sees the new heartbeat) ...
    # lastHeartbeat counts whole seconds: the page's clock moves on one
    driver.execute_script("return window.__moduAdvanceClock(1000)")
    run_heartbeat(driver)
    beat = until(
        lambda: (
            (j := lock_json(sb, "01-welcome")) and j["lastHeartbeat"] > first["lastHeartbeat"] and j
        ),
        "the web admin's heartbeat",
    )
    assert beat and beat["startedAt"] == first["startedAt"]
    assert lock_messages(sb)[0] == "system: heartbeat for 01-welcome [skip ci]"
    view = desk.run(desk.locks.inspect("01-welcome"))
    assert view.status is LockStatus.HELD and view.last_heartbeat == beat["lastHeartbeat"]

    # ... and releases when the editor is closed.
    close_editor(driver)
    until(lambda: lock_json(sb, "01-welcome") is None, "the web admin's release")
    assert lock_messages(sb)[0] == "system: release lock for 01-welcome [skip ci]"
    assert desk.run(desk.locks.inspect("01-welcome")).status is LockStatus.FREE

    # 2. The web admin edits again; the desktop takes over; the web admin notices at its next
    # heartbeat and turns read-only.
    open_doc(driver, "01-welcome")
    until(lambda: lock_json(sb, "01-welcome"), "the web admin's second lock")
    until(lambda: editor_open(driver), "the editor")
    view = desk.run(desk.locks.inspect("01-welcome"))
    taken = desk.run(desk.locks.steal(view))
    assert taken.outcome is AcquireOutcome.TOOK_OVER and taken.held is not None
    assert (lock_json(sb, "01-welcome") or {})["editingBy"] == DESK.login
    assert lock_messages(sb)[0] == acquire_message("01-welcome", DESK.login)
    run_heartbeat(driver)
    assert "락을 잃어버렸습니다" in alert_text(driver)
    from selenium.webdriver.common.by import By

    assert not driver.find_element(By.ID, "btn-save-edit").is_enabled()
    assert (lock_json(sb, "01-welcome") or {})["editingBy"] == DESK.login  # left alone
    beat2 = desk.run(desk.locks.heartbeat(taken.held))
    assert beat2.outcome is HeartbeatOutcome.OK
    assert lock_messages(sb)[0] == heartbeat_message("01-welcome")
    close_editor(driver)  # read-only: the web admin does not release a lock it lost
    until(lambda: not editor_open(driver), "the editor closed")  # after any release it sends
    assert (lock_json(sb, "01-welcome") or {})["editingBy"] == DESK.login
    released = desk.run(desk.locks.release(taken.held))
    assert lock_json(sb, "01-welcome") is None, released
    assert lock_messages(sb)[0] == release_message("01-welcome")

    # 3. The reverse: the desktop holds a lock; the web admin sees who, takes it over, and the
    # desktop notices at its next heartbeat.
    mine = desk.run(desk.locks.acquire("02-programs"))
    assert mine.outcome is AcquireOutcome.ACQUIRED and mine.held is not None
    open_doc(driver, "02-programs")
    alert_box = driver.find_element(By.ID, "modal-lock-alert")
    until(lambda: alert_box.is_displayed(), "the web admin's lock dialog")
    assert driver.find_element(By.ID, "lock-alert-user").text == f"@{DESK.login}"
    driver.find_element(By.ID, "btn-lock-force").click()
    assert "강제로" in alert_text(driver)  # confirm(): accepted
    until(
        lambda: (lock_json(sb, "02-programs") or {}).get("editingBy") == WEB.login,
        "the web admin's takeover",
    )
    until(lambda: editor_open(driver), "the editor after the takeover")
    assert driver.find_element(By.ID, "btn-save-edit").is_enabled()
    lost = desk.run(desk.locks.heartbeat(mine.held))
    assert lost.outcome is HeartbeatOutcome.LOST
    assert lost.view is not None and lost.view.holder == WEB.login
    assert (lock_json(sb, "02-programs") or {})["editingBy"] == WEB.login  # desktop left it
    close_editor(driver)
    until(lambda: lock_json(sb, "02-programs") is None, "the web admin's release")
    assert desk.run(desk.locks.inspect("02-programs")).status is LockStatus.FREE


def test_the_web_admin_reads_an_unpublished_page(
    world: tuple[Sandbox, Any, str, Desktop], tmp_path: Any
) -> None:
    """A page the desktop created unpublished (``draft: true``) is listed and opens with its
    title and place. The web admin's own save writes only the six front matter keys it knows,
    so saving such a page there publishes it: recorded here, because the web admin is the
    reference and is not ours to change (the desktop shows 게시 안 됨 and never drops the line
    by itself)."""
    from selenium.webdriver.common.by import By

    from modu_desktop.core.brochure.unpublished import is_unpublished
    from modu_desktop.core.docops.newdoc import NewDocRequest
    from modu_desktop.core.docops.ops import DocOps
    from modu_desktop.core.documents.store import DocumentStore

    sb, driver, url, desk = world
    ops = DocOps(DocumentStore(desk.client, tmp_path / "blobs"), desk.locks, DESK.login)
    made = desk.run(ops.create(NewDocRequest("camp", "여름 캠프", 6), keep_lock=False))
    assert made.ok and made.doc_id == "06-camp"
    text = (sb.read_file("docs/06-camp.md") or b"").decode("utf-8")
    assert is_unpublished(text)

    sign_in(driver, url)
    listed = driver.find_elements(By.XPATH, "//span[@class='doc-name']")
    assert "06-camp.md" in [e.text for e in listed]
    open_doc(driver, "06-camp")
    until(lambda: editor_open(driver), "the editor")
    assert driver.find_element(By.ID, "edit-title").get_attribute("value") == "여름 캠프"
    assert driver.find_element(By.ID, "edit-pos").get_attribute("value") == "6"
    assert driver.find_element(By.ID, "edit-id").get_attribute("value") == "camp"

    # Its save rewrites the front matter from its six fields: the draft line goes with it.
    driver.find_element(By.ID, "btn-save-edit").click()
    until(lambda: not editor_open(driver), "the web admin's save")
    until(lambda: lock_json(sb, "06-camp") is None, "the web admin's release")
    saved = (sb.read_file("docs/06-camp.md") or b"").decode("utf-8")
    assert not is_unpublished(saved) and "title: 여름 캠프" in saved
