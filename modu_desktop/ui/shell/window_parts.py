"""The main window's widgets: banners, the list beside the editor, the status bar."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QImage
from PySide6.QtWidgets import QLabel, QMenu, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from modu_desktop.core.account.people import person
from modu_desktop.core.pictures.mirror import RepoImageMirror
from modu_desktop.i18n import tr
from modu_desktop.ui.doclist.panel import DocListPanel
from modu_desktop.ui.editing.editor import EditorPane
from modu_desktop.ui.kit.banners import Banner, ElidedLabel
from modu_desktop.ui.kit.busy import BusyOverlay
from modu_desktop.ui.preview.pane import PreviewPane
from modu_desktop.ui.publish.deploy_notice import FailedDeployNotice

if TYPE_CHECKING:
    from modu_desktop.ui.shell.window_api import ShellApi


class WindowWidgets:
    """The main window's widgets and actions, as :func:`build_central`, :func:`build_status_bar`
    and ``window_menus.build_menus`` create them (typed here, so the window stays small)."""

    practice_banner: Banner
    viewer_banner: Banner
    notice: Banner
    lock_banner: Banner
    readonly_banner: Banner
    splitter: QSplitter
    doc_list: DocListPanel
    right: QStackedWidget
    doc_header: QLabel
    editor_pane: EditorPane
    status_lock: QLabel
    status_deploy: QLabel
    status_conn: QLabel
    status_account: QLabel
    deploy_notice: FailedDeployNotice
    list_busy: BusyOverlay
    open_busy: BusyOverlay
    lang_actions: dict[str | None, QAction]
    act_open: QAction
    act_save: QAction
    act_save_new: QAction
    act_close: QAction
    act_refresh: QAction
    act_signout: QAction
    act_quit: QAction
    act_undo: QAction
    act_redo: QAction
    act_find: QAction
    act_replace: QAction
    act_explain_save: QAction
    act_zoom_in: QAction
    act_zoom_out: QAction
    act_zoom_reset: QAction
    document_menu: QMenu


def build_central(win: ShellApi) -> None:
    """Banners on top, the document list and the editor side by side (``win.*`` widgets)."""
    ctx = win.ctx
    run = win.ops.run
    central = QWidget()
    outer = QVBoxLayout(central)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.setSpacing(0)
    _window_banners(win, outer)
    win.splitter = QSplitter(Qt.Orientation.Horizontal)
    win.doc_list = DocListPanel()
    win.doc_list.openRequested.connect(lambda d: run(win.open_document(d)))
    win.doc_list.refreshRequested.connect(lambda: run(win.refresh_list(asked=True)))
    win.splitter.addWidget(win.doc_list)
    win.right = QStackedWidget()
    placeholder = QLabel(
        tr("Choose a document on the left and press Enter (or double-click) to open it.")
    )
    placeholder.setObjectName("placeholder")
    placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
    placeholder.setWordWrap(True)
    win.right.addWidget(placeholder)
    win.right.addWidget(_document_area(win))
    win.splitter.addWidget(win.right)
    win.splitter.setStretchFactor(0, 0)
    win.splitter.setStretchFactor(1, 1)
    win.splitter.setSizes([470, 810])
    # list toggle, view switch and sizes remembered; the editor's own Save button;
    # progress where the user looks
    win.editor_pane.attach_window(win.splitter, win.doc_list, ctx.paths.config_dir / "layout.json")
    win.editor_pane.saveRequested.connect(lambda: run(win.save(), name="save"))
    win.list_busy = BusyOverlay(
        win.doc_list, lambda: win.refreshing, tr("Loading the document list…")
    )
    win.open_busy = BusyOverlay(win.right, lambda: win.busy_open, tr("Opening…"))
    outer.addWidget(win.splitter, 1)
    win.setCentralWidget(central)


def _window_banners(win: ShellApi, outer: QVBoxLayout) -> None:
    """Practice mode, viewer mode, the one notice and the failed build, above everything."""
    ctx = win.ctx
    win.practice_banner = Banner("practiceBanner", "practice")
    win.practice_banner.set_text(tr("Practice mode — nothing you do here reaches the real site"))
    win.practice_banner.setVisible(ctx.practice)
    outer.addWidget(win.practice_banner)

    win.viewer_banner = Banner("viewerBanner", "info")
    if ctx.options.force_viewer:
        win.viewer_banner.set_text(tr("Viewer mode: you can read documents but not change them."))
    else:
        win.viewer_banner.set_text(
            lambda: tr(
                "Viewer mode: your account ({login}) can read this repository "
                "but not change it, so documents open read-only.",
                login=person(ctx.login),
            )
        )
    win.viewer_banner.setVisible(ctx.viewer)
    outer.addWidget(win.viewer_banner)

    win.notice = Banner("noticeBar", "info")
    close_notice = win.notice.add_button("noticeCloseButton", tr("Dismiss"))
    close_notice.clicked.connect(win.notice.hide)
    win.notice.hide()
    outer.addWidget(win.notice)

    # The site's build is everyone's, not the open document's: said whatever is open (or not)
    win.deploy_notice = FailedDeployNotice()
    win.deploy_notice.hide()
    outer.addWidget(win.deploy_notice)


def _document_area(win: ShellApi) -> QWidget:
    """The open document's title, its banners (lock lost, read-only) and the editor."""
    run = win.ops.run
    area = QWidget()
    area_lay = QVBoxLayout(area)
    area_lay.setContentsMargins(4, 4, 4, 4)
    win.doc_header = QLabel("")
    win.doc_header.setObjectName("docHeader")
    area_lay.addWidget(win.doc_header)

    win.lock_banner = Banner("lockBanner", "error", buttons_below=True)
    b = win.lock_banner.add_button("copyTextButton", tr("&Copy my text"))
    b.clicked.connect(win.copy_text)
    b = win.lock_banner.add_button("saveAsNewButton", tr("Save as ne&w document"))
    b.clicked.connect(lambda: run(win.save_as_new_document()))
    b = win.lock_banner.add_button("compareButton", tr("Com&pare with current version"))
    b.clicked.connect(lambda: run(win.compare_with_current()))
    win.lock_banner.hide()
    area_lay.addWidget(win.lock_banner)

    win.readonly_banner = Banner("readOnlyBanner", "info")
    win.readonly_banner.hide()
    area_lay.addWidget(win.readonly_banner)

    win.editor_pane = EditorPane()
    win.editor_pane.textEdited.connect(win.update_title)
    win.editor_pane.textEdited.connect(win.note_edit)
    win.editor_pane.editor.document().modificationChanged.connect(lambda _m: win.update_title())
    area_lay.addWidget(win.editor_pane, 1)
    return area


def explain_cannot_save(win: ShellApi) -> None:
    """Ctrl+S on a read-only document: say why, in the banner that shows its state."""
    s = win.doc
    if s is None or s.editable:
        return
    if s.lost:
        banner = win.lock_banner
    elif win.ctx.viewer:
        banner = win.viewer_banner
    else:
        banner = win.readonly_banner
    banner.prefix(tr("It cannot be saved here."))
    banner.show()


def build_status_bar(win: ShellApi) -> None:
    sb = win.statusBar()
    win.status_lock = ElidedLabel("")  # a long sentence ends in "…", whole on hover and click
    win.status_lock.setObjectName("statusLock")
    win.status_lock.setAccessibleName(tr("Lock state"))
    win.status_deploy = ElidedLabel("")
    win.status_deploy.setObjectName("statusDeploy")
    win.status_deploy.setAccessibleName(tr("Publishing state"))
    win.status_conn = QLabel("")
    win.status_conn.setObjectName("statusConnection")
    win.status_conn.setAccessibleName(tr("Connection"))
    who = QLabel(account_text(win))
    who.setObjectName("statusAccount")
    win.status_account = who
    sb.addWidget(win.status_lock, 1)
    sb.addPermanentWidget(win.status_deploy)
    sb.addPermanentWidget(win.status_conn)
    sb.addPermanentWidget(who)


def account_text(win: ShellApi) -> str:
    """Who is signed in, to which repository: "김민지 (kim) · pnuai/PNU-Modu"."""
    return tr("{login} · {repo}", login=person(win.ctx.login), repo=win.ctx.settings.repo_full_name)


def preview_images(win: ShellApi, owner: QObject, stopped: Callable[[], bool]) -> RepoImageMirror:
    """Pictures of the repository in the preview: fetched in the background into the cache,
    several arrivals coalesced into one re-render."""
    timer = QTimer(owner)
    timer.setSingleShot(True)
    timer.setInterval(100)

    def ready() -> None:
        if not stopped():
            timer.start()

    mirror = RepoImageMirror(
        win.ctx.store,
        win.ctx.paths.cache_dir / "repo-files",
        spawn=lambda coro: win.ops.run(coro),
        on_ready=ready,
        doc_path=lambda: win.doc.path if win.doc is not None else None,
    )
    pv = win.editor_pane.preview
    page = win.editor_pane.page_editor

    def picture(src: str) -> QImage | None:
        """The text boxes' pictures: the same files the preview shows (None: not here yet)."""
        url = mirror.resolve(src)
        image = QImage(QUrl(url).toLocalFile()) if url is not None else None
        return image if image is not None and not image.isNull() else None

    def rerender() -> None:
        page.reload_pictures()
        if isinstance(pv, PreviewPane):
            pv.set_image_resolver(mirror.resolve)  # forget the last HTML: pictures changed
            if win.doc is not None:
                pv.render_now(win.editor_pane.text())

    page.set_image_source(picture)
    if isinstance(pv, PreviewPane):
        pv.set_image_resolver(mirror.resolve)
    timer.timeout.connect(rerender)
    return mirror
