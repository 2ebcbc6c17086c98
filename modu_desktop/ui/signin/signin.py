"""Sign-in screen: which token to create, a button to GitHub's page, paste, check, go.

The check goes through the core (``core.auth.check_token``: ``GET /user`` + the repository's
permissions). Push permission → editor; no push → viewer mode (said plainly by the main window);
a bad token → one sentence in place. The token goes to the OS keyring, or — with no usable
keyring — stays in memory for this session only, and the screen says so before you paste.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.account import auth as core_auth_mod
from modu_desktop.core.account.auth import (
    SignInResult,
    TokenSource,
    TokenStore,
    check_token,
    read_only_reason,
    resolve_oauth_client_id,
)
from modu_desktop.core.account.settings import Settings, web_url_for_api
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.operation import operations_for

ClientFactory = Callable[[str, str, Settings], Any]


fine_grained_token_url = core_auth_mod.fine_grained_token_url
classic_token_url = core_auth_mod.classic_token_url


class SignInWidget(QWidget):
    """Emits ``signedIn(result, token, client)`` once a token works for the repository."""

    signedIn = Signal(object, str, object)
    quitRequested = Signal()
    practiceRequested = Signal()

    def __init__(
        self,
        settings: Settings,
        token_store: TokenStore,
        client_factory: ClientFactory,
        *,
        initial_error: str | None = None,
        initial_token: str | None = None,
        deployment_paths: list[Any] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.token_store = token_store
        self.client_factory = client_factory
        self.result: SignInResult | None = None
        self.stored_as: TokenSource | None = None
        self._task: asyncio.Task[Any] | None = None
        self._pending: tuple[SignInResult, str, Any] | None = None
        self.client_id = resolve_oauth_client_id(
            settings.api_url, settings.oauth_client_id, paths=deployment_paths
        )
        self.setObjectName("signInWindow")
        self.setWindowTitle(tr("Sign in — Modu Desktop"))
        fit_to_screen(self, 720, 640)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(24, 20, 24, 20)
        title = QLabel(tr("Sign in to Modu Desktop"))
        title.setObjectName("signInTitle")
        lay.addWidget(title)

        self.intro = QLabel()
        self.intro.setObjectName("signInIntro")
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.intro)
        practice_row = QHBoxLayout()  # filled below: the practice button, near the top
        lay.addLayout(practice_row)

        self._browser_buttons(lay)
        lay.addWidget(self._token_box())
        lay.addWidget(self._pending_box())
        self._device_code_labels()
        lay.addWidget(self.device_code)
        lay.addWidget(self.device_hint)
        # filled here: the keyboard reaches the sign-in steps before it
        self._fill_practice_row(practice_row)

        self.message = QLabel(initial_error or "")
        self.message.setObjectName("signInMessage")
        self.message.setWordWrap(True)
        self.message.setProperty("kind", "error")
        self.message.setAccessibleName(tr("Sign-in message"))
        lay.addWidget(self.message)
        lay.addWidget(self._server_box(settings))
        lay.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        self.quit_button = QPushButton(tr("&Quit"))
        self.quit_button.setObjectName("signInQuitButton")
        self.quit_button.setAccessibleName(tr("Quit"))
        bottom.addWidget(self.quit_button)
        lay.addLayout(bottom)
        self._connect()
        if initial_token:
            self.token_edit.setText(initial_token)  # masked; "Sign in" retries with it
        self._update_intro()
        self._update_keyring_notice()
        self.token_edit.setFocus()
        self.opened_urls: list[str] = []  # for tests and diagnostics

    # --- the screen's parts ---
    def _browser_buttons(self, lay: QVBoxLayout) -> None:
        """The first choice when IT configured an OAuth app: sign in with the browser."""
        self.device_button = QPushButton(tr("Sign in with the browser (recommended)"))
        self.device_button.setObjectName("deviceFlowButton")
        self.device_button.setAccessibleName(tr("Sign in with the browser"))
        self.device_button.setProperty("primary", True)
        self.device_button.setVisible(bool(self.client_id))
        lay.addWidget(self.device_button)
        self.token_toggle = QPushButton(tr("Sign in with a token instead ▸"))
        self.token_toggle.setObjectName("tokenToggleButton")
        self.token_toggle.setFlat(True)
        self.token_toggle.setVisible(bool(self.client_id))
        lay.addWidget(self.token_toggle)

    def _fill_practice_row(self, row: QHBoxLayout) -> None:
        """Try it in practice mode: for someone new, without signing in."""
        self.practice_button = QPushButton(tr("Try it in practice mode"))
        self.practice_button.setObjectName("practiceButton")
        self.practice_button.setAccessibleName(
            tr("Try it in practice mode: a practice copy on this computer, no sign-in")
        )
        self.practice_button.setToolTip(
            tr("Opens a practice brochure on this computer. Nothing reaches the real site.")
        )
        row.addWidget(self.practice_button)
        practice_hint = QLabel(
            tr("New here? Look around a practice brochure first, without signing in.")
        )
        practice_hint.setObjectName("practiceHint")
        practice_hint.setWordWrap(True)
        row.addWidget(practice_hint, 1)

    def _token_box(self) -> QGroupBox:
        """The token path, step by step: create it on GitHub, paste it, sign in."""
        self.token_box = QGroupBox(tr("Sign in with a token"))
        self.token_box.setObjectName("tokenBox")
        tlay = QVBoxLayout(self.token_box)
        links = QHBoxLayout()
        self.fine_button = QPushButton(tr("Create a token"))
        self.fine_button.setObjectName("createTokenButton")
        self.fine_button.setAccessibleName(tr("Open GitHub's page to create a token, filled in"))
        self.classic_button = QPushButton(tr("Classic token page"))
        self.classic_button.setObjectName("createClassicTokenButton")
        self.classic_button.setAccessibleName(tr("Open GitHub's page to create a classic token"))
        self.classic_button.setFlat(True)
        links.addWidget(self.fine_button)
        links.addStretch(1)
        links.addWidget(self.classic_button)
        tlay.addLayout(links)
        self.steps = QLabel()
        self.steps.setObjectName("tokenSteps")
        self.steps.setWordWrap(True)
        self.steps.setTextFormat(Qt.TextFormat.RichText)
        tlay.addWidget(self.steps)

        form = QFormLayout()
        self.token_edit = QLineEdit()
        self.token_edit.setObjectName("tokenEdit")
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_edit.setPlaceholderText(tr("github_pat_… or ghp_…"))
        self.token_edit.setAccessibleName(tr("Personal access token"))
        token_label = QLabel(tr("&Token:"))
        token_label.setBuddy(self.token_edit)
        form.addRow(token_label, self.token_edit)
        tlay.addLayout(form)

        self.keyring_notice = QLabel("")
        self.keyring_notice.setObjectName("keyringNotice")
        self.keyring_notice.setWordWrap(True)
        self.keyring_notice.setProperty("kind", "warning")
        tlay.addWidget(self.keyring_notice)

        row = QHBoxLayout()
        self.sign_in_button = QPushButton(tr("&Sign in"))
        self.sign_in_button.setObjectName("signInButton")
        self.sign_in_button.setAccessibleName(tr("Sign in"))
        self.sign_in_button.setDefault(True)
        row.addWidget(self.sign_in_button)
        row.addStretch(1)
        tlay.addLayout(row)
        self.token_box.setVisible(not self.client_id)
        return self.token_box

    def _pending_box(self) -> QGroupBox:
        """A token that reads but cannot save yet: the organization has not approved it."""
        self.pending_box = QGroupBox(tr("Waiting for approval"))
        self.pending_box.setObjectName("approvalPendingBox")
        play = QVBoxLayout(self.pending_box)
        self.pending_text = QLabel("")
        self.pending_text.setObjectName("approvalPendingText")
        self.pending_text.setWordWrap(True)
        play.addWidget(self.pending_text)
        prow = QHBoxLayout()
        self.continue_read_only = QPushButton(tr("Continue read-only"))
        self.continue_read_only.setObjectName("continueReadOnlyButton")
        self.check_again = QPushButton(tr("Check again"))
        self.check_again.setObjectName("checkAgainButton")
        prow.addWidget(self.check_again)
        prow.addWidget(self.continue_read_only)
        prow.addStretch(1)
        play.addLayout(prow)
        self.pending_box.hide()
        return self.pending_box

    def _device_code_labels(self) -> None:
        """The code to type on GitHub's page, big, when signing in with the browser."""
        self.device_code = QLabel("")
        self.device_code.setObjectName("deviceCodeLabel")
        self.device_code.setAccessibleName(tr("Code to type on GitHub"))
        self.device_code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.device_code.font()
        font.setPointSize(font.pointSize() + 10)
        font.setBold(True)
        self.device_code.setFont(font)
        self.device_code.hide()
        self.device_hint = QLabel("")
        self.device_hint.setObjectName("deviceCodeHint")
        self.device_hint.setWordWrap(True)
        self.device_hint.hide()

    def _server_box(self, settings: Settings) -> QGroupBox:
        """Another server or repository (GitHub Enterprise), folded away."""
        self.server_box = QGroupBox(tr("Server and repository"))
        self.server_box.setObjectName("serverBox")
        self.server_box.setCheckable(True)
        self.server_box.setChecked(False)
        sform = QFormLayout(self.server_box)
        self.api_edit = QLineEdit(settings.api_url)
        self.api_edit.setObjectName("apiUrlEdit")
        self.api_edit.setAccessibleName(tr("GitHub API address"))
        self.repo_edit = QLineEdit(settings.repo_full_name)
        self.repo_edit.setObjectName("repoEdit")
        self.repo_edit.setAccessibleName(tr("Repository (owner/name)"))
        self.branch_edit = QLineEdit(settings.branch)
        self.branch_edit.setObjectName("branchEdit")
        self.branch_edit.setAccessibleName(tr("Branch"))
        for label, w in (
            (tr("&API address:"), self.api_edit),
            (tr("Re&pository:"), self.repo_edit),
            (tr("&Branch:"), self.branch_edit),
        ):
            lab = QLabel(label)
            lab.setBuddy(w)
            sform.addRow(lab, w)
        hint = QLabel(
            tr(
                "GitHub Enterprise: use https://YOUR-SERVER/api/v3. "
                "Change only if your office told you to."
            )
        )
        hint.setWordWrap(True)
        sform.addRow(hint)
        self._toggle_server_fields(False)
        return self.server_box

    def _connect(self) -> None:
        self.token_toggle.clicked.connect(self._show_token_path)
        self.continue_read_only.clicked.connect(self._continue_read_only)
        self.check_again.clicked.connect(self.start_check)
        self.server_box.toggled.connect(self._toggle_server_fields)
        self.practice_button.clicked.connect(self.practiceRequested)
        self.fine_button.clicked.connect(lambda: self._open_url(self.token_page_url()))
        self.classic_button.clicked.connect(
            lambda: self._open_url(classic_token_url(self._web_url()))
        )
        self.sign_in_button.clicked.connect(self.start_check)
        self.token_edit.returnPressed.connect(self.start_check)
        self.device_button.clicked.connect(self._device_flow)
        self.quit_button.clicked.connect(self.quitRequested)
        self.api_edit.textChanged.connect(lambda _t: self._update_intro())
        self.repo_edit.textChanged.connect(lambda _t: self._update_intro())

    # --- texts ---
    def _web_url(self) -> str:
        return web_url_for_api(self.api_edit.text().strip() or self.settings.api_url)

    def _repo_parts(self) -> tuple[str, str]:
        repo = self.repo_edit.text().strip() or self.settings.repo_full_name
        owner, _sep, name = repo.partition("/")
        return owner or self.settings.owner, name or self.settings.name

    def token_page_url(self) -> str:
        """GitHub's new-token page, filled in (name, description, owner, expiry, permissions)."""
        owner, _name = self._repo_parts()
        return fine_grained_token_url(self._web_url(), owner)

    def _update_intro(self) -> None:
        owner, name = self._repo_parts()
        repo = f"{owner}/{name}"
        self.intro.setText(
            tr(
                "Modu Desktop saves your work to the brochure repository <b>{repo}</b> on "
                "GitHub, so it needs to know who you are.",
                repo=_esc(repo),
            )
        )
        self.steps.setText(
            "<ol style='margin-left:-20px'>"
            + "".join(
                f"<li style='margin-bottom:4px'>{t}</li>"
                for t in (
                    tr(
                        "Press <b>Create a token</b>. GitHub's page opens with the name, "
                        "description, owner (<b>{owner}</b>), expiry (90 days) and permissions "
                        "(Contents: read and write, Actions: read) already filled in.",
                        owner=_esc(owner),
                    ),
                    tr(
                        "One thing to choose yourself: under <b>Repository access</b> pick "
                        "<b>Only select repositories</b> and choose <b>{name}</b>.",
                        name=_esc(name),
                    ),
                    tr(
                        "Press <b>Generate token</b> at the bottom and copy the token "
                        "(it starts with github_pat_ and is shown only once)."
                    ),
                    tr("Paste it below and press <b>Sign in</b>."),
                )
            )
            + "</ol>"
        )

    def _show_token_path(self) -> None:
        self.token_box.setVisible(not self.token_box.isVisible())
        if self.token_box.isVisible():
            self.token_edit.setFocus()

    def _update_keyring_notice(self) -> None:
        if self.token_store.keyring_available():
            self.keyring_notice.setText(
                tr("The token will be kept in this computer's password store (keyring).")
            )
            self.keyring_notice.setProperty("kind", "info")
        else:
            self.keyring_notice.setText(
                tr(
                    "This computer has no password store (keyring), so the token is kept "
                    "only until you quit; you will paste it again next time."
                )
            )
            self.keyring_notice.setProperty("kind", "warning")

    def _toggle_server_fields(self, on: bool) -> None:
        for w in (self.api_edit, self.repo_edit, self.branch_edit):
            w.setEnabled(on)

    def _open_url(self, url: str) -> None:
        self.opened_urls.append(url)
        QDesktopServices.openUrl(QUrl(url))

    def _device_flow(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self._task = self._run(self.device_flow(), "sign-in.device-flow")

    async def device_flow(self) -> SignInResult | None:
        """OAuth device flow: show a code, open GitHub's page, wait for the approval, then
        check the token like a pasted one. Needs ``oauth_client_id`` in the settings."""
        from modu_desktop.core.account import auth as core_auth

        client_id = self.client_id
        if not client_id:
            self._error(
                tr(
                    "Signing in with the browser is not available in this version; "
                    "please use a token."
                )
            )
            return None
        problem = self._apply_server_fields()
        if problem:
            self._error(problem)
            return None
        web = self._web_url()
        self.device_button.setEnabled(False)
        try:
            code = await core_auth.start_device_flow(web, client_id)
            self.device_code.setText(code.user_code)
            self.device_code.show()
            self.device_hint.setText(
                tr(
                    "Type this code on the GitHub page that opened ({url}) and approve. "
                    "It is on the clipboard too.",
                    url=code.verification_uri,
                )
            )
            self.device_hint.show()
            QGuiApplication.clipboard().setText(code.user_code)
            self._open_url(code.verification_uri)
            token = await core_auth.poll_device_flow(web, client_id, code)
        except core_auth.DeviceFlowError as exc:
            self._error(exc.user_message())
            return None
        finally:
            self.device_button.setEnabled(True)
        self.device_code.hide()
        self.device_hint.hide()
        self.token_edit.setText(token)
        return await self.check()

    # --- checking ---
    def _apply_server_fields(self) -> str | None:
        if not self.server_box.isChecked():
            return None
        api = self.api_edit.text().strip().rstrip("/")
        if not api.startswith(("https://", "http://")):
            return tr("The API address must start with https://.")
        try:
            self.settings.set_repo(self.repo_edit.text())
        except ValueError:
            return tr("The repository must look like owner/name.")
        self.settings.api_url = api
        self.settings.branch = self.branch_edit.text().strip() or "main"
        if self.token_store.account != self.settings.api_host:
            self.token_store.account = self.settings.api_host
        return None

    def start_check(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self._task = self._run(self.check(), "sign-in.check")

    def _run(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        # No window exists yet: the sign-in's jobs are in the shared registry, their errors
        # (worded once by the helper) shown here, and its inputs usable again whatever happens.
        return operations_for(self).run(coro, name=name, busy=self._idle_after, report=self._error)

    def _idle_after(self, busy: bool) -> None:
        if not busy:  # the job ended (even by an unexpected error): the inputs come back
            self._busy(False)

    def _busy(self, busy: bool) -> None:
        self.sign_in_button.setEnabled(not busy)
        self.token_edit.setEnabled(not busy)
        if busy:
            self.message.setProperty("kind", "info")
            self.message.setText(tr("Checking the token with GitHub…"))
        self.message.style().unpolish(self.message)
        self.message.style().polish(self.message)

    def _error(self, text: str) -> None:
        self.message.setProperty("kind", "error")
        self.message.setText(text)
        self.message.style().unpolish(self.message)
        self.message.style().polish(self.message)
        self.token_edit.setFocus()
        self.token_edit.selectAll()

    async def check(self) -> SignInResult | None:
        token = self.token_edit.text().strip()
        if not token:
            self._error(tr("Paste the token first."))
            return None
        problem = self._apply_server_fields()
        if problem:
            self._error(problem)
            return None
        if self._pending is not None:  # "Check again": forget the waiting client
            old = self._pending[2]
            self._pending = None
            with contextlib.suppress(Exception):
                await old.aclose()
        self._busy(True)
        client = self.client_factory(self.settings.api_url, token, self.settings)
        try:
            result = await check_token(client, required_org=self.settings.required_org)
        except Exception as exc:  # check_token turns errors into results; be safe anyway
            result = SignInResult(False, error_kind="other", message=str(exc))
        self._busy(False)
        self.result = result
        if not result.ok:
            with contextlib.suppress(Exception):
                await client.aclose()
            self._error(result.message or tr("Sign-in failed."))
            return result
        if read_only_reason(token, result) == "approval_pending":
            owner, _name = self._repo_parts()
            self._pending = (result, token, client)
            self.pending_text.setText(
                tr(
                    "The token works, but it cannot save yet: the organization {owner} has to "
                    "approve new tokens first. Ask one of its owners to approve “{token}” "
                    "(Settings → Personal access tokens → Pending requests), then press Check "
                    "again. Until then you can look around read-only.",
                    owner=owner,
                    token=core_auth_mod.TOKEN_NAME,
                )
            )
            self.pending_box.show()
            self.message.setText("")
            return result
        self.pending_box.hide()
        self.stored_as = self.token_store.save(token)
        self.message.setProperty("kind", "info")
        self.message.setText(tr("Signed in as {login}.", login=result.login or "?"))
        self.signedIn.emit(result, token, client)
        return result

    def _continue_read_only(self) -> None:
        if self._pending is None:
            return
        result, token, client = self._pending
        self._pending = None
        self.pending_box.hide()
        self.stored_as = self.token_store.save(token)
        self.signedIn.emit(result, token, client)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
