"""Sending a prepared change of many pages: one commit now, or one item in the save queue.

    outcome = await send_change(client, prepared, editor, spool=ws.spool)

``send_change`` makes the change one commit through :func:`apply_changes` (locks respected,
nothing newer overwritten, the branch moved only as a fast forward) with the message that
names it (:func:`~modu_desktop.core.changes.outcome.commit_message`), and answers a
:class:`ChangeOutcome`: the pages changed (with their new blob shas and texts, so an open
editor can build on them) and the pages left out, with why. When GitHub cannot be reached or
answers unclearly (:func:`~modu_desktop.core.saving.service.is_queueable_error`) and there is a
queue, the whole change waits there as ONE item (``SaveSpool.enqueue_change``) and the outcome
is QUEUED; :func:`make_change_sender` is how the queue sends it later, with the same checks on
the head it then finds. Without a queue (the CLI), the error is raised: nothing was changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from modu_desktop.core.changes.apply import DEFAULT_ATTEMPTS, Editor, ReadBlob, apply_changes
from modu_desktop.core.changes.model import ChangeResult
from modu_desktop.core.changes.outcome import (
    ChangeOutcome,
    ChangeState,
    PreparedChange,
    commit_message,
    outcome_of,
)
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.saving.queue import (
    ChangeItem,
    ChangeSender,
    ChangesLanded,
    Fatal,
    Retryable,
    SaveSpool,
)
from modu_desktop.core.saving.service import is_queueable_error, outcome_for_error

log = logging.getLogger(__name__)

__all__ = ["make_change_sender", "outcome_of_item", "send_change"]


async def _apply(
    client: GitHubClient,
    prepared: PreparedChange,
    editor: Editor,
    *,
    branch: str | None = None,
    read_blob: ReadBlob | None = None,
    attempts: int = DEFAULT_ATTEMPTS,
) -> ChangeResult:
    return await apply_changes(
        client,
        prepared.changes,
        editor,
        message=lambda included: commit_message(prepared.summary, included, editor.login),
        branch=branch,
        attempts=attempts,
        read_blob=read_blob,
        all_or_nothing=prepared.all_or_nothing,
    )


async def send_change(
    client: GitHubClient,
    prepared: PreparedChange,
    editor: Editor,
    *,
    spool: SaveSpool | None = None,
    read_blob: ReadBlob | None = None,
    attempts: int = DEFAULT_ATTEMPTS,
    on_queued: Callable[[ChangeItem], None] | None = None,
) -> ChangeOutcome:
    """Make ``prepared`` one commit, or queue it as one item when GitHub is away (see the
    module docstring; ``on_queued``: told of the item, as ``SaveService.on_queued`` is, so the
    queue's runner wakes up). Raises the client's error when it cannot be queued."""
    if not len(prepared.changes):
        return ChangeOutcome(prepared.summary, ChangeState.NOTHING, left_out=prepared.left_out)
    try:
        result = await _apply(client, prepared, editor, read_blob=read_blob, attempts=attempts)
    except Exception as exc:
        if spool is None or not is_queueable_error(exc):
            raise
        item = spool.enqueue_change(
            api_host=str(client.api_url),
            repo=client.repo.full_name,
            branch=client.repo.branch,
            login=editor.login,
            session_id=editor.session_id,
            install_id=editor.install_id,
            stale_s=editor.stale_s,
            body=prepared.as_json(),
            pages=prepared.pages,
        )
        log.info("a change of %d page(s) queued as %s (%r)", prepared.pages, item.id, exc)
        if on_queued is not None:
            on_queued(item)
        return ChangeOutcome(
            prepared.summary,
            ChangeState.QUEUED,
            left_out=prepared.left_out,
            queued_id=item.id,
            cause=exc,
            waiting=prepared.pages,
        )
    return outcome_of(prepared, result)


def _same_repo(client: GitHubClient, item: ChangeItem) -> bool:
    api = str(client.api_url).rstrip("/")
    return api == item.api_host and client.repo.full_name == item.repo


def make_change_sender(client: GitHubClient) -> ChangeSender:
    """How the save queue sends a queued change: the same commit as :func:`send_change`
    makes, on the head found then, as the person who queued it. An unclear answer is sent
    again later (a file that already reads as asked is not written twice)."""

    async def send(item: ChangeItem) -> ChangesLanded | Retryable | Fatal:
        if not _same_repo(client, item):
            return Retryable("queued for another repository; waiting for it", 3600.0)
        prepared = PreparedChange.from_json(item.body)
        editor = Editor(item.login, item.session_id, item.install_id, item.stale_s)
        try:
            result = await _apply(client, prepared, editor, branch=item.branch)
        except Exception as exc:
            found = outcome_for_error(exc)
            if isinstance(found, Fatal):
                return found
            reason = getattr(found, "reason", repr(exc))
            return Retryable(reason, getattr(found, "retry_after", None))
        outcome = outcome_of(prepared, result)
        return ChangesLanded(outcome.as_json(), result.commit_sha)

    return send


def outcome_of_item(item: ChangeItem) -> ChangeOutcome:
    """What became of a queued change: landed (its outcome, the pages' new texts with it),
    failed (nothing changed), or still waiting."""
    prepared = PreparedChange.from_json(item.body)
    if item.result is not None:
        return ChangeOutcome.from_json(item.result, prepared.new_texts)
    state = ChangeState.NOTHING if item.failure else ChangeState.QUEUED
    return ChangeOutcome(
        prepared.summary,
        state,
        left_out=prepared.left_out,
        queued_id=item.id,
        waiting=prepared.pages,
    )
