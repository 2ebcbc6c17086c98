"""Import ``.md`` files as new documents (Qt-free), like dropping them on the web admin.

``read_candidates(paths)`` turns files into :class:`ImportCandidate` objects whose
:class:`~modu_desktop.core.docops.ops.NewDocRequest` is pre-filled from the file: front matter
``id``,
``title``, ``nav_label``, ``sidebar_position``, ``theme``, ``layout`` (the web admin pre-fills
the same keys); without them the id comes from the file name (its number prefix becomes the
position: ``03-news.md`` → id ``news``, position 3) and the title from the first ``# heading``.
The whole file (front matter keys we do not set, body, line endings) is kept as the new file's
text; only the form's keys are rewritten.

``check_candidates(cands, snapshot)`` marks conflicts: invalid values, a file or id that already
exists in the repository, or two imported files that want the same file name or id.
``import_candidates(ops, cands)`` creates the conflict-free ones through ``DocOps.create`` (so the
lock-first rule and the web admin's commit message apply), one after the other.

Text encoding: UTF-8 (with or without BOM); failing that, CP949/EUC-KR (Korean Windows editors
still save it) with a note; anything else is refused. Files over 2 MB are refused (a brochure
page is a few KB; a bigger ``.md`` is almost surely not one).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.brochure.themes import DEFAULT_LAYOUT, DEFAULT_THEME, LAYOUT_KEYS, THEME_KEYS
from modu_desktop.core.docops.ops import (
    MAX_POSITION,
    DocOps,
    NewDocRequest,
    OpCode,
    OpResult,
    Text,
    existing_clash,
    suggest_id,
    validate_new_doc,
    validate_new_id,
)
from modu_desktop.core.documents.store import RepoSnapshot

__all__ = [
    "MAX_IMPORT_BYTES",
    "ImportCandidate",
    "check_candidates",
    "import_candidates",
    "parse_candidate",
    "read_candidates",
]

MAX_IMPORT_BYTES = 2 * 1024 * 1024
_PREFIX = re.compile(r"^(\d+)[-_.](.+)$")
_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)


@dataclass(frozen=True)
class ImportCandidate:
    """One file to import. ``request`` is the pre-filled form (None when the file is unusable);
    ``notes`` say what was guessed or replaced; ``conflict`` why it cannot be created as is."""

    source: str
    request: NewDocRequest | None
    notes: tuple[Text, ...] = ()
    conflict: Text | None = None
    conflict_field: str | None = None
    conflict_path: str | None = None  # the existing file it clashes with

    @property
    def ok(self) -> bool:
        return self.request is not None and self.conflict is None

    def with_request(self, req: NewDocRequest) -> ImportCandidate:
        """The user edited the form: keep the notes, clear the conflict (check again)."""
        return replace(self, request=req, conflict=None, conflict_field=None, conflict_path=None)


def _decode(data: bytes) -> tuple[str | None, Text | None]:
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp949")
    except UnicodeDecodeError:
        return None, None
    return text, Text(
        "The file was not UTF-8; it was read as Korean (CP949/EUC-KR) and will be saved as UTF-8."
    )


def parse_candidate(source: str, data: bytes) -> ImportCandidate:
    """Pre-fill the new-document form from one file's bytes. Never raises."""
    name = posixpath.basename(source.replace("\\", "/"))
    refused = _refusal(name, data)
    if refused is not None:
        return ImportCandidate(source, None, conflict=refused)
    text, note = _decode(data)
    if text is None or "\x00" in text:
        return ImportCandidate(
            source,
            None,
            conflict=Text("{name} is not a text file (or not in UTF-8).", name=name),
        )
    notes: list[Text] = [note] if note else []
    fm = frontmatter.parse(text)
    stem = re.sub(r"\.(md|markdown)$", "", name, flags=re.I)
    m = _PREFIX.match(stem)
    name_pos = int(m.group(1)) if m else None
    name_id = m.group(2) if m else stem
    doc_id = _doc_id(fm, name_id, notes)
    position = _position(fm, name_pos, notes)
    title = (fm.get("title") or "").strip()
    if not title:
        h = _HEADING.search(fm.body if fm.has_block else text)
        title = h.group(1).strip() if h else doc_id
        notes.append(Text("No title in the front matter; using “{title}”.", title=title))
    title = " ".join(title.split())
    theme, layout = _look(fm, notes)
    nav = " ".join((fm.get("nav_label") or "").split()) or None
    # an import keeps what its file says about publishing (draft: true stays, nothing is added)
    req = NewDocRequest(doc_id, title, position, nav, theme, layout, base_text=text, draft=False)
    return ImportCandidate(source, req, tuple(notes))


def _refusal(name: str, data: bytes) -> Text | None:
    """Why the file cannot be a document at all (not Markdown, too big), or None."""
    if not name.lower().endswith((".md", ".markdown")):
        return Text("{name} is not a Markdown (.md) file.", name=name)
    if len(data) > MAX_IMPORT_BYTES:
        return Text(
            "{name} is {v} KB; a document can be at most {v2} MB.",
            name=name,
            v=len(data) // 1024,
            v2=MAX_IMPORT_BYTES // (1024 * 1024),
        )
    return None


def _doc_id(fm: frontmatter.FrontMatter, name_id: str, notes: list[Text]) -> str:
    """The front matter's id, else the file's; changed (and said so) when it is not allowed."""
    doc_id = (fm.get("id") or "").strip() or name_id
    if validate_new_id(doc_id) is not None:
        fixed = suggest_id(doc_id) or suggest_id(name_id) or "imported"
        notes.append(
            Text("The id '{doc_id}' was changed to '{fixed}'.", doc_id=doc_id, fixed=fixed)
        )
        doc_id = fixed
    return doc_id


def _position(fm: frontmatter.FrontMatter, name_pos: int | None, notes: list[Text]) -> int | None:
    """The menu place: ``sidebar_position`` (rounded into range), else the file's number."""
    position: int | None = None
    raw_pos = fm.get_number("sidebar_position")
    if raw_pos is not None:
        if isinstance(raw_pos, int) and 0 <= raw_pos <= MAX_POSITION:
            position = raw_pos
        else:
            position = max(0, min(MAX_POSITION, round(raw_pos)))
            notes.append(
                Text(
                    "sidebar_position {raw_pos} was rounded to {position}.",
                    raw_pos=raw_pos,
                    position=position,
                )
            )
    elif fm.get("sidebar_position") is not None:
        notes.append(Text("sidebar_position is not a number; it was left out."))
    elif name_pos is not None and name_pos <= MAX_POSITION:
        position = name_pos
    return position


def _look(fm: frontmatter.FrontMatter, notes: list[Text]) -> tuple[str, str]:
    """The theme and layout the file names, or the defaults (said so when unknown)."""
    theme = (fm.get("theme") or "").strip()
    if theme not in THEME_KEYS:
        if theme:
            notes.append(
                Text(
                    "Unknown theme '{theme}'; using {DEFAULT_THEME}.",
                    theme=theme,
                    DEFAULT_THEME=DEFAULT_THEME,
                )
            )
        theme = DEFAULT_THEME
    layout = (fm.get("layout") or "").strip()
    if layout not in LAYOUT_KEYS:
        if layout:
            notes.append(
                Text(
                    "Unknown layout '{layout}'; using {DEFAULT_LAYOUT}.",
                    layout=layout,
                    DEFAULT_LAYOUT=DEFAULT_LAYOUT,
                )
            )
        layout = DEFAULT_LAYOUT
    return theme, layout


def read_candidates(paths: Iterable[str | Path]) -> list[ImportCandidate]:
    """Read files from disk (read errors become a conflict on that file)."""
    out: list[ImportCandidate] = []
    for p in paths:
        path = Path(p)
        try:
            size = path.stat().st_size
            if size > MAX_IMPORT_BYTES:
                data = b"\0" * (MAX_IMPORT_BYTES + 1)  # refused by size, without reading it
            else:
                data = path.read_bytes()
        except OSError as exc:
            out.append(
                ImportCandidate(
                    str(path),
                    None,
                    conflict=Text(
                        "Could not read {name}: {v}.", name=path.name, v=exc.strerror or exc
                    ),
                )
            )
            continue
        out.append(parse_candidate(str(path), data))
    return out


def check_candidates(cands: Sequence[ImportCandidate], snap: RepoSnapshot) -> list[ImportCandidate]:
    """The candidates with their conflicts filled in (against the repository and each other)."""
    out: list[ImportCandidate] = []
    seen_paths: dict[str, str] = {}
    seen_ids: dict[str, str] = {}
    for c in cands:
        if c.request is None:
            out.append(c)
            continue
        c = c.with_request(c.request.normalized())
        req = c.request
        assert req is not None
        bad = validate_new_doc(req)
        if bad is not None:
            out.append(replace(c, conflict=bad[1], conflict_field=bad[0]))
            continue
        clash: OpResult | None = existing_clash(req, snap)
        if clash is not None:
            out.append(
                replace(
                    c,
                    conflict=clash.text,
                    conflict_field=clash.input_field,
                    conflict_path=clash.path,
                )
            )
            continue
        key_p, key_i = req.path.casefold(), req.doc_id.casefold()
        other = seen_paths.get(key_p) or seen_ids.get(key_i)
        if other is not None:
            base = posixpath.basename(other.replace("\\", "/"))
            field = "position" if key_p in seen_paths and req.position is not None else "doc_id"
            out.append(
                replace(
                    c,
                    conflict=Text(
                        "{base} in this import already uses the file name {path} or the "
                        "id '{doc_id}'.",
                        base=base,
                        path=req.path,
                        doc_id=req.doc_id,
                    ),
                    conflict_field=field,
                )
            )
            continue
        seen_paths[key_p] = c.source
        seen_ids[key_i] = c.source
        out.append(c)
    return out


async def import_candidates(
    ops: DocOps, cands: Sequence[ImportCandidate]
) -> list[tuple[ImportCandidate, OpResult]]:
    """Check against a fresh listing, then create every conflict-free candidate (serially).
    Candidates with a conflict get an EXISTS/INVALID result and are not written."""
    snap = await ops.store.refresh()
    checked = check_candidates(cands, snap)
    results: list[tuple[ImportCandidate, OpResult]] = []
    for c in checked:
        if c.request is None or c.conflict is not None:
            code = OpCode.EXISTS if c.conflict_path or c.conflict_field else OpCode.INVALID
            if c.request is None:
                code = OpCode.INVALID
            text = c.conflict or Text("Not imported.")
            results.append(
                (
                    c,
                    OpResult(
                        code,
                        text,
                        request=c.request,
                        input_field=c.conflict_field,
                        path=c.conflict_path,
                    ),
                )
            )
            continue
        res = await ops.create(c.request, keep_lock=False)
        results.append((c, res))
    return results
