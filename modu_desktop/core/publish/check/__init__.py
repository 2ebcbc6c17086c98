"""Publish check: would the site still build with this document, and does it show as meant?

    from modu_desktop.core.publish.check import check_text, apply_fix
    result = check_text(text, path="docs/01-intro.md", repo_paths=tree_paths)
    for f in result.findings:
        f.line, f.column, f.code, f.severity, f.message, f.fix   # fix: a TextEdit or None
    fixed = apply_fix(text, result.findings[0])

``Severity.BREAKS_BUILD``: the site's build (Docusaurus 3 compiling every ``.md`` as MDX) fails
with this document, so nothing is published until it is fixed. ``Severity.PAGE_WRONG``: the site
builds, but this page will not show what was written (a line the brochure plugin ignores, an
unknown block, a missing picture in a block, in HTML or in the front matter, a required field
missing). ``Severity.MAY_SURPRISE``:
the site reads the Markdown differently from how it looks in the editor (emphasis that shows its
stars, single tildes that strike text through, a date that becomes a list, ``1:1`` losing ``:1``
in a block) — a warning, the writer may mean it (``surprises.py``).

``repo_paths`` (the repository's file paths, e.g. from the git tree) turns on the picture checks;
``path`` is the document's path in the repository (relative pictures are resolved from it).
Qt-free, no I/O, safe to run on a worker thread (the app does). The warnings read the text part
by part with the preview's Markdown parser and keep each part's answer, so a check after an
edit reads again only what changed (``scripts/bench_publish_check.py``, CPU time: 150 KB
handbook ~45–55 ms for a first check, ~20 ms after an edit). Accuracy against the real site
toolchain and the measurements: ``docs/publish-check.md``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from modu_desktop.core.pictures.found import page_pictures

from .frontmatter import check_front_matter
from .mdx import Scanner
from .model import CheckResult, Finding, LineIndex, Severity, StaleEdit, TextEdit, apply_edits
from .surprises import check_surprises, clear_surprise_cache

__all__ = [
    "CheckResult",
    "Finding",
    "Severity",
    "StaleEdit",
    "TextEdit",
    "apply_all_fixes",
    "apply_edits",
    "apply_fix",
    "check_text",
    "clear_check_caches",
    "new_surprises",
    "tree_paths",
]


def check_text(
    text: str, *, path: str = "docs/document.md", repo_paths: Collection[str] | None = None
) -> CheckResult:
    """Check one document's full text (front matter and body)."""
    index = LineIndex(text)
    scanner = Scanner(text, 0, index, doc_path=path, repo_paths=repo_paths)
    fm = check_front_matter(scanner)
    scanner.body_start = scanner.consumed = fm.end
    scanner.run()
    check_surprises(text, fm.end, scanner.add)
    if repo_paths is not None:
        _missing_pictures(text, path, repo_paths, scanner)
    findings = sorted(scanner.findings, key=lambda f: (f.offset, f.code))
    return CheckResult(tuple(findings))


def _missing_pictures(text: str, path: str, repo_paths: Collection[str], scanner: Scanner) -> None:
    """Pictures written as HTML or named by the front matter's ``image`` that the repository
    does not have: the page shows none there (the site still builds). Markdown pictures and
    block fields are the MDX and block parts' own findings."""
    for use in page_pictures(text, path):
        if use.kind not in ("html", "front-matter") or use.path is None:
            continue
        if use.path not in repo_paths:
            code = "picture-missing" if use.kind == "html" else "fm-picture-missing"
            scanner.add(code, Severity.PAGE_WRONG, use.start, use.end, url=use.written)


def clear_check_caches() -> None:
    """Forget the parts of documents read so far (the benchmark's cold start)."""
    clear_surprise_cache()


async def tree_paths(client: Any, branch: str | None = None) -> set[str]:
    """The repository's file paths for the picture checks (the recursive tree; a repeated call
    is a free 304 when nothing changed)."""
    tree = await client.get_tree(branch, recursive=True)
    return {e.path for e in tree.entries if e.type == "blob"}


def apply_fix(text: str, finding: Finding) -> str:
    """``text`` with the finding's one-click fix applied (raises StaleEdit if it moved)."""
    if finding.fix is None:
        raise ValueError(f"{finding.code} has no fix")
    return finding.fix.apply(text)


def new_surprises(text: str, result: CheckResult, before: str | None, path: str) -> list[Finding]:
    """The ``MAY_SURPRISE`` findings of ``result`` (for ``text``) that the earlier version
    ``before`` did not have (compared by kind and the words they cover), so the writer is
    asked once, when the surprise is written, not at every save after choosing to keep it."""
    mine = [f for f in result.findings if f.severity is Severity.MAY_SURPRISE]
    if before is None or not mine:
        return mine
    seen: dict[tuple[str, str], int] = {}
    for f in check_text(before, path=path).findings:
        if f.severity is Severity.MAY_SURPRISE:
            key = (f.code, before[f.offset : f.end])
            seen[key] = seen.get(key, 0) + 1
    out = []
    for f in mine:
        key = (f.code, text[f.offset : f.end])
        if seen.get(key, 0) > 0:
            seen[key] -= 1
        else:
            out.append(f)
    return out


def apply_all_fixes(text: str, result: CheckResult) -> str:
    """Apply every fix that does not overlap another (then check again: more may appear)."""
    return apply_edits(text, [f.fix for f in result.findings if f.fix is not None])
