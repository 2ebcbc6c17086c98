"""Where does the real site build find a picture? Asks Docusaurus itself.

    uv run python scripts/picture_oracle.py --site PATH [--json FILE] [--confirm-throw]

``PATH`` is a checkout of the site with its dependencies installed (``npm ci``). The tool makes a
temporary copy of it (``node_modules`` linked) whose documents are replaced by two documents
that reference pictures in every form a writer may use (relative to the document, ``./``,
``../``, ``/…``, the base URL, ``@site/…``, ``pathname://``, remote, ``data:``, ``file:``,
percent-encoded and Korean names, query and hash), with picture files placed so that each form
can land on only one of them. It builds the copy with ``GITHUB_REPOSITORY=pnuai/PNU-Modu`` (the
base URL of the published site, ``/PNU-Modu/``) and with
``markdown.hooks.onBrokenMarkdownImages: 'warn'``, so one build reports every case: a picture
the build found is emitted as ``{baseUrl}assets/images/<name>-<hash>.<ext>`` (the name tells
which file it took), a picture it could not find is reported as broken, and the other forms
are left as written.

``--confirm-throw`` builds once more with the site's own configuration and only the first
broken case: the build must stop (that is what a broken picture does to the published site).

Output (``--json``): ``{"base_url": …, "cases": [{"doc", "src", "outcome": "file" | "broken" |
"left", "file": repo path or null, "html_src": …}], "throw_confirmed": bool | null}``.
Exit status 0, 1 when a build failed unexpectedly, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BASE_URL = "/PNU-Modu/"
REPOSITORY = "pnuai/PNU-Modu"

# A 1×1 PNG, padded past the size below which the build inlines a picture as a data: URL (so
# each is emitted as a file whose name tells which one it is); each differs by a byte, so the
# build's content hashes differ too.
_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8"
    "ffff3f0005fe02fea7d5a9d00000000049454e44ae426082"
)

# Repository path → the picture placed there. Names are unique, so an emitted asset's name
# tells which file the build took.
PICTURES = (
    "docs/img/doc-img.png",
    "docs/img/한글 그림.png",
    "docs/sub/sub-pic.png",
    "static/img/oracle/static-pic.png",
    "static/img/oracle/static-query.png",
    "static/img/uploads/upload_1700000000000.png",
    "src/oracle/site-pic.png",
)

# (document, Markdown image destination as written)
CASES: tuple[tuple[str, str], ...] = (
    ("docs/oracle.md", "img/doc-img.png"),
    ("docs/oracle.md", "./img/doc-img.png"),
    ("docs/oracle.md", "../docs/img/doc-img.png"),
    ("docs/oracle.md", "img/oracle/static-pic.png"),
    ("docs/oracle.md", "../static/img/oracle/static-pic.png"),
    ("docs/oracle.md", "/img/oracle/static-pic.png"),
    ("docs/oracle.md", "/PNU-Modu/img/oracle/static-pic.png"),
    # the web admin's upload on a project site, and the address the publish check's fix writes
    ("docs/oracle.md", "/PNU-Modu/img/uploads/upload_1700000000000.png"),
    ("docs/oracle.md", "/img/uploads/upload_1700000000000.png"),
    ("docs/oracle.md", "@site/src/oracle/site-pic.png"),
    ("docs/oracle.md", "@site/static/img/oracle/static-pic.png"),
    ("docs/oracle.md", "/img/oracle/static-query.png?v=2#top"),
    ("docs/oracle.md", "img/%ED%95%9C%EA%B8%80%20%EA%B7%B8%EB%A6%BC.png"),
    ("docs/oracle.md", "<img/한글 그림.png>"),
    ("docs/oracle.md", "img/missing.png"),
    ("docs/oracle.md", "/img/oracle/missing.png"),
    ("docs/oracle.md", "pathname:///img/oracle/not-checked.png"),
    ("docs/oracle.md", "https://example.com/remote.png"),
    ("docs/oracle.md", "//example.com/protocol-relative.png"),
    ("docs/oracle.md", "data:image/png;base64,iVBORw0KGgo="),
    ("docs/oracle.md", "file:///tmp/local.png"),
    ("docs/sub/oracle-sub.md", "sub-pic.png"),
    ("docs/sub/oracle-sub.md", "../img/doc-img.png"),
    ("docs/sub/oracle-sub.md", "img/doc-img.png"),
    ("docs/sub/oracle-sub.md", "/img/oracle/static-pic.png"),
    ("docs/sub/oracle-sub.md", "@site/docs/sub/sub-pic.png"),
)

_ASSET = re.compile(r"^" + re.escape(BASE_URL) + r"assets/images/(.+)-[0-9a-f]{6,}(\.\w+)$")
_IMG = re.compile(r"<img\b[^>]*>")
_ATTR = re.compile(r"""([\w-]+)=("[^"]*"|'[^']*'|[^\s"'>]+)""")


def _copy_site(checkout: Path, into: Path) -> None:
    ignore = shutil.ignore_patterns("node_modules", "build", ".docusaurus")
    shutil.copytree(checkout, into, ignore=ignore)
    modules = checkout.resolve() / "node_modules"
    (into / "node_modules").symlink_to(modules, target_is_directory=True)
    for doc in (into / "docs").rglob("*"):
        if doc.suffix in (".md", ".mdx"):
            doc.unlink()


def _write_cases(site: Path, cases: tuple[tuple[str, str], ...]) -> None:
    for i, rel in enumerate(PICTURES):
        target = site / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_PNG + bytes([i]) * 16_384)
    docs: dict[str, list[str]] = {}
    for i, (doc, src) in enumerate(cases):
        docs.setdefault(doc, []).append(f"![case-{i}]({src})\n")
    for doc, lines in docs.items():
        path = site / doc
        path.parent.mkdir(parents=True, exist_ok=True)
        title = Path(doc).stem
        path.write_text(f"---\ntitle: {title}\n---\n\n" + "\n".join(lines), "utf-8")


def _warn_on_broken_pictures(site: Path) -> None:
    config = site / "docusaurus.config.js"
    text = config.read_text("utf-8")
    hook = "  markdown: { hooks: { onBrokenMarkdownImages: 'warn' } },\n"
    text, n = re.subn(r"(\n\s*future\s*:)", "\n" + hook + r"\1", text, count=1)
    if n != 1:
        raise SystemExit("could not add the markdown hook to docusaurus.config.js")
    config.write_text(text, "utf-8")


def _build(site: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GITHUB_REPOSITORY=REPOSITORY)
    return subprocess.run(
        ["npm", "run", "build"], cwd=site, capture_output=True, text=True, timeout=900, env=env
    )


def _page_images(build: Path, doc: str) -> dict[str, str]:
    """alt → src of the pictures on a document's built page."""
    stem = doc.removeprefix("docs/").removesuffix(".md")
    page = build / "docs" / stem / "index.html"
    if not page.is_file():
        page = build / "docs" / f"{stem}.html"
    out = {}
    for tag in _IMG.findall(page.read_text("utf-8")):
        attrs = {k: html.unescape(v.strip("\"'")) for k, v in _ATTR.findall(tag)}
        if attrs.get("alt", "").startswith("case-"):
            out[attrs["alt"]] = attrs.get("src", "")
    return out


def run(checkout: Path, confirm_throw: bool) -> dict:
    with tempfile.TemporaryDirectory(prefix="modu-picture-oracle-") as tmp:
        site = Path(tmp) / "site"
        _copy_site(checkout, site)
        _write_cases(site, CASES)
        _warn_on_broken_pictures(site)
        done = _build(site)
        if done.returncode != 0:
            print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
            raise SystemExit(1)
        log = done.stdout + done.stderr
        pages = {doc: _page_images(site / "build", doc) for doc in {d for d, _ in CASES}}
        by_name = {Path(p).stem: p for p in PICTURES}
        cases = []
        for i, (doc, src) in enumerate(CASES):
            shown = pages[doc].get(f"case-{i}")
            if shown is None:
                raise SystemExit(f"case {i} ({src}) is not on the built page")
            asset = _ASSET.match(shown.split("#", 1)[0].split("?", 1)[0])
            written = src[1:-1] if src.startswith("<") else src
            if asset:
                outcome, file = "file", by_name.get(html.unescape(asset.group(1)))
                if file is None:
                    raise SystemExit(f"case {i}: unexpected asset {shown}")
            else:
                broken = f'Markdown image with URL `{written}` in source file "{doc}"' in log
                outcome, file = ("broken" if broken else "left"), None
            cases.append(
                {"doc": doc, "src": written, "outcome": outcome, "file": file, "html_src": shown}
            )
        throw_confirmed = None
        if confirm_throw:
            first = next(c for c in cases if c["outcome"] == "broken")
            again = Path(tmp) / "again"
            _copy_site(checkout, again)
            _write_cases(again, ((first["doc"], first["src"]),))
            throw_confirmed = _build(again).returncode != 0
        return {"base_url": BASE_URL, "cases": cases, "throw_confirmed": throw_confirmed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--site", type=Path, required=True, help="site checkout with node_modules")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--confirm-throw", action="store_true")
    args = ap.parse_args(argv)
    if not (args.site / "docusaurus.config.js").is_file():
        ap.error(f"{args.site} is not a site checkout")
    result = run(args.site, args.confirm_throw)
    text = json.dumps(result, indent=2, ensure_ascii=False)
    if args.json:
        args.json.write_text(text + "\n", "utf-8")
    for c in result["cases"]:
        print(f"{c['doc']:<24} {c['src']:<48} {c['outcome']:<7} {c['file'] or c['html_src']}")
    print(f"a broken picture stops the default build: {result['throw_confirmed']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
