"""Sign-in screen: which token to create, a button to GitHub's page, paste, check, go.

The check goes through the core (``core.auth.check_token``: ``GET /user`` + the repository's
permissions). Push permission → editor; no push → viewer mode (said plainly by the main window);
a bad token → one sentence in place. The token goes to the OS keyring, or — with no usable
keyring — stays in memory for this session only, and the screen says so before you paste.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
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

from modu_desktop.core.auth import SignInResult, TokenSource, TokenStore, check_token
from modu_desktop.core.settings import Settings, web_url_for_api
from modu_desktop.ui.shell.asyncutil import spawn

ClientFactory = Callable[[str, str, Settings], Any]


def fine_grained_token_url(web_url: str) -> str:
    return f"{web_url.rstrip('/')}/settings/personal-access-tokens/new"


def classic_token_url(web_url: str) -> str:
    return f"{web_url.rstrip('/')}/settings/tokens/new?scopes=repo&description=Modu%20Desktop"


class SignInWidget(QWidget):
    """Emits ``signedIn(result, token, client)`` once a token works for the repository."""

    signedIn = Signal(object, str, object)
    quitRequested = Signal()

    def __init__(
        self,
        settings: Settings,
        token_store: TokenStore,
        client_factory: ClientFactory,
        *,
        lang: str = "en",
        initial_error: str | None = None,
        initial_token: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.token_store = token_store
        self.client_factory = client_factory
        self.lang = lang
        self.result: SignInResult | None = None
        self.stored_as: TokenSource | None = None
        self._task: asyncio.Task[Any] | None = None
        self.setObjectName("signInWindow")
        self.setWindowTitle(self.tr("Sign in — Modu Desktop"))
        self.resize(720, 640)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(24, 20, 24, 20)
        title = QLabel(self.tr("Sign in to Modu Desktop"))
        title.setObjectName("signInTitle")
        lay.addWidget(title)

        self.intro = QLabel()
        self.intro.setObjectName("signInIntro")
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.intro)

        links = QHBoxLayout()
        self.fine_button = QPushButton(self.tr("&1. Create a token on GitHub (recommended)"))
        self.fine_button.setObjectName("createTokenButton")
        self.fine_button.setAccessibleName(
            self.tr("Open GitHub's page to create a fine-grained token")
        )
        self.classic_button = QPushButton(self.tr("Classic token page"))
        self.classic_button.setObjectName("createClassicTokenButton")
        self.classic_button.setAccessibleName(
            self.tr("Open GitHub's page to create a classic token")
        )
        links.addWidget(self.fine_button)
        links.addWidget(self.classic_button)
        links.addStretch(1)
        lay.addLayout(links)

        form = QFormLayout()
        self.token_edit = QLineEdit()
        self.token_edit.setObjectName("tokenEdit")
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_edit.setPlaceholderText(self.tr("github_pat_… or ghp_…"))
        self.token_edit.setAccessibleName(self.tr("Personal access token"))
        token_label = QLabel(self.tr("&2. Paste the token:"))
        token_label.setBuddy(self.token_edit)
        form.addRow(token_label, self.token_edit)
        lay.addLayout(form)

        self.keyring_notice = QLabel("")
        self.keyring_notice.setObjectName("keyringNotice")
        self.keyring_notice.setWordWrap(True)
        self.keyring_notice.setProperty("kind", "warning")
        lay.addWidget(self.keyring_notice)

        row = QHBoxLayout()
        self.sign_in_button = QPushButton(self.tr("&3. Sign in"))
        self.sign_in_button.setObjectName("signInButton")
        self.sign_in_button.setAccessibleName(self.tr("Sign in"))
        self.sign_in_button.setDefault(True)
        self.device_button = QPushButton(self.tr("Sign in with the &browser"))
        self.device_button.setObjectName("deviceFlowButton")
        self.device_button.setAccessibleName(self.tr("Sign in with the browser"))
        self.device_button.setVisible(bool(settings.oauth_client_id))
        self.quit_button = QPushButton(self.tr("&Quit"))
        self.quit_button.setObjectName("signInQuitButton")
        self.quit_button.setAccessibleName(self.tr("Quit"))
        row.addWidget(self.sign_in_button)
        row.addWidget(self.device_button)
        row.addStretch(1)
        row.addWidget(self.quit_button)
        lay.addLayout(row)

        self.device_code = QLabel("")
        self.device_code.setObjectName("deviceCodeLabel")
        self.device_code.setAccessibleName(self.tr("Code to type on GitHub"))
        self.device_code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.device_code.font()
        font.setPointSize(font.pointSize() + 10)
        font.setBold(True)
        self.device_code.setFont(font)
        self.device_code.hide()
        lay.addWidget(self.device_code)
        self.device_hint = QLabel("")
        self.device_hint.setObjectName("deviceCodeHint")
        self.device_hint.setWordWrap(True)
        self.device_hint.hide()
        lay.addWidget(self.device_hint)

        self.message = QLabel(initial_error or "")
        self.message.setObjectName("signInMessage")
        self.message.setWordWrap(True)
        self.message.setProperty("kind", "error")
        self.message.setAccessibleName(self.tr("Sign-in message"))
        lay.addWidget(self.message)

        self.server_box = QGroupBox(self.tr("Server and repository"))
        self.server_box.setObjectName("serverBox")
        self.server_box.setCheckable(True)
        self.server_box.setChecked(False)
        sform = QFormLayout(self.server_box)
        self.api_edit = QLineEdit(settings.api_url)
        self.api_edit.setObjectName("apiUrlEdit")
        self.api_edit.setAccessibleName(self.tr("GitHub API address"))
        self.repo_edit = QLineEdit(settings.repo_full_name)
        self.repo_edit.setObjectName("repoEdit")
        self.repo_edit.setAccessibleName(self.tr("Repository (owner/name)"))
        self.branch_edit = QLineEdit(settings.branch)
        self.branch_edit.setObjectName("branchEdit")
        self.branch_edit.setAccessibleName(self.tr("Branch"))
        for label, w in (
            (self.tr("&API address:"), self.api_edit),
            (self.tr("Re&pository:"), self.repo_edit),
            (self.tr("&Branch:"), self.branch_edit),
        ):
            lab = QLabel(label)
            lab.setBuddy(w)
            sform.addRow(lab, w)
        hint = QLabel(
            self.tr(
                "GitHub Enterprise: use https://YOUR-SERVER/api/v3. "
                "Change only if your office told you to."
            )
        )
        hint.setWordWrap(True)
        sform.addRow(hint)
        self._toggle_server_fields(False)
        self.server_box.toggled.connect(self._toggle_server_fields)
        lay.addWidget(self.server_box)
        lay.addStretch(1)

        self.fine_button.clicked.connect(
            lambda: self._open_url(fine_grained_token_url(self._web_url()))
        )
        self.classic_button.clicked.connect(
            lambda: self._open_url(classic_token_url(self._web_url()))
        )
        self.sign_in_button.clicked.connect(self.start_check)
        self.token_edit.returnPressed.connect(self.start_check)
        self.device_button.clicked.connect(self._device_flow)
        self.quit_button.clicked.connect(self.quitRequested)
        self.api_edit.textChanged.connect(lambda _t: self._update_intro())
        self.repo_edit.textChanged.connect(lambda _t: self._update_intro())
        if initial_token:
            self.token_edit.setText(initial_token)  # masked; "Sign in" retries with it
        self._update_intro()
        self._update_keyring_notice()
        self.token_edit.setFocus()
        self.opened_urls: list[str] = []  # for tests and diagnostics

    # --- texts ---
    def _web_url(self) -> str:
        return web_url_for_api(self.api_edit.text().strip() or self.settings.api_url)

    def _update_intro(self) -> None:
        repo = self.repo_edit.text().strip() or self.settings.repo_full_name
        self.intro.setText(
            self.tr(
                "Modu Desktop saves your work to the brochure repository <b>{repo}</b> on GitHub. "
                "It needs a <i>personal access token</i> from your GitHub account:"
                "<ul>"
                "<li><b>Fine-grained token</b> (recommended): under <i>Repository access</i> "
                "choose only <b>{repo}</b>; under <i>Permissions → Contents</i> "
                "choose <b>Read and write</b>.</li>"
                "<li><b>Classic token</b>: tick the <b>repo</b> scope.</li>"
                "</ul>"
                "Copy the token GitHub shows you (it is shown only once) and paste it below."
            ).format(repo=_esc(repo))
        )

    def _update_keyring_notice(self) -> None:
        if self.token_store.keyring_available():
            self.keyring_notice.setText(
                self.tr("The token will be kept in this computer's password store (keyring).")
            )
            self.keyring_notice.setProperty("kind", "info")
        else:
            self.keyring_notice.setText(
                self.tr(
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
        self._task = spawn(self.device_flow())

    async def device_flow(self) -> SignInResult | None:
        """OAuth device flow: show a code, open GitHub's page, wait for the approval, then
        check the token like a pasted one. Needs ``oauth_client_id`` in the settings."""
        from modu_desktop.core import auth as core_auth

        client_id = self.settings.oauth_client_id
        if not client_id:
            self._error(
                self.tr(
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
                self.tr(
                    "Type this code on the GitHub page that opened ({url}) and approve. "
                    "It is on the clipboard too."
                ).format(url=code.verification_uri)
            )
            self.device_hint.show()
            QGuiApplication.clipboard().setText(code.user_code)
            self._open_url(code.verification_uri)
            token = await core_auth.poll_device_flow(web, client_id, code)
        except core_auth.DeviceFlowError as exc:
            self._error(exc.user_message(self.lang))
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
            return self.tr("The API address must start with https://.")
        try:
            self.settings.set_repo(self.repo_edit.text())
        except ValueError:
            return self.tr("The repository must look like owner/name.")
        self.settings.api_url = api
        self.settings.branch = self.branch_edit.text().strip() or "main"
        if self.token_store.account != self.settings.api_host:
            self.token_store.account = self.settings.api_host
        return None

    def start_check(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self._task = spawn(self.check())

    def _busy(self, busy: bool) -> None:
        self.sign_in_button.setEnabled(not busy)
        self.token_edit.setEnabled(not busy)
        if busy:
            self.message.setProperty("kind", "info")
            self.message.setText(self.tr("Checking the token with GitHub…"))
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
            self._error(self.tr("Paste the token first."))
            return None
        problem = self._apply_server_fields()
        if problem:
            self._error(problem)
            return None
        self._busy(True)
        client = self.client_factory(self.settings.api_url, token, self.settings)
        try:
            result = await check_token(
                client, required_org=self.settings.required_org, lang=self.lang
            )
        except Exception as exc:  # check_token turns errors into results; be safe anyway
            result = SignInResult(False, error_kind="other", message=str(exc))
        self._busy(False)
        self.result = result
        if not result.ok:
            with contextlib.suppress(Exception):
                await client.aclose()
            self._error(result.message or self.tr("Sign-in failed."))
            return result
        self.stored_as = self.token_store.save(token)
        self.message.setProperty("kind", "info")
        self.message.setText(self.tr("Signed in as {login}.").format(login=result.login or "?"))
        self.signedIn.emit(result, token, client)
        return result


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
