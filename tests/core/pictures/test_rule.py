"""One rule for where a picture is, held to the real site build's answers.

``tests/fixtures/picture-oracle.json`` is the output of ``scripts/picture_oracle.py`` on the site
fixture (Docusaurus 3.10, base URL ``/PNU-Modu/``): for each address form, which repository file
the build took, or that it found none (a broken picture: the default build stops), or that it
left the address as written. The Node test below asks the build again.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.pictures.rule import (
    BaseUrlPicture,
    Picture,
    base_url_dropped,
    locate_picture,
    markdown_destination,
    repo_picture_path,
    upload_address,
)
from tests.helpers.nodetools import require_node, site_checkout

ROOT = Path(__file__).resolve().parents[3]
ORACLE = ROOT / "tests" / "fixtures" / "picture-oracle.json"


def _agrees(case: dict[str, Any], existing: set[str]) -> tuple[bool, Picture]:
    picture = locate_picture(markdown_destination(case["src"]), case["doc"])
    if case["outcome"] == "file":
        return picture == Picture("file", path=case["file"]), picture
    if case["outcome"] == "broken":
        return picture.kind == "file" and picture.path not in existing, picture
    return picture == Picture("left", url=case["html_src"]), picture


def _check(oracle: dict[str, Any]) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from picture_oracle import PICTURES
    finally:
        sys.path.pop(0)
    existing = set(PICTURES)
    cases = oracle["cases"]
    assert {c["outcome"] for c in cases} == {"file", "broken", "left"}
    wrong = [(c, p) for c in cases for ok, p in [_agrees(c, existing)] if not ok]
    assert not wrong, wrong


def test_the_rule_agrees_with_the_recorded_build() -> None:
    _check(json.loads(ORACLE.read_text("utf-8")))


@pytest.mark.timeout(1200)
def test_the_rule_agrees_with_a_fresh_build(tmp_path: Path) -> None:
    require_node()
    out = tmp_path / "oracle.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "picture_oracle.py"),
            "--site",
            str(site_checkout()),
            "--json",
            str(out),
            "--confirm-throw",
        ],
        capture_output=True,
        text=True,
        timeout=1150,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    fresh = json.loads(out.read_text("utf-8"))
    assert fresh["throw_confirmed"] is True  # a picture the build cannot find stops it
    _check(fresh)


@pytest.mark.parametrize(
    ("src", "doc", "expected"),
    [
        ("img/a.png", "docs/01.md", "docs/img/a.png"),
        ("img/a.png", "docs/sub/02.md", "docs/sub/img/a.png"),
        ("../static/img/a.png", "docs/01.md", "static/img/a.png"),
        ("/img/a.png", "docs/sub/02.md", "static/img/a.png"),
        ("/PNU-Modu/img/a.png", "docs/01.md", "static/PNU-Modu/img/a.png"),
        ("@site/src/a.png", "docs/01.md", "src/a.png"),
        ("/img/a.png?v=1#x", "docs/01.md", "static/img/a.png"),
        ("img/%EC%82%AC%EC%A7%84.png", "docs/01.md", "docs/img/사진.png"),
        ("/../docs/img/a.png", "docs/01.md", "docs/img/a.png"),
        ("../../a.png", "docs/01.md", None),
        ("https://example.com/a.png", "docs/01.md", None),
        ("//example.com/a.png", "docs/01.md", None),
        ("data:image/png;base64,AAAA", "docs/01.md", None),
        ("pathname:///img/a.png", "docs/01.md", None),
        ("", "docs/01.md", None),
    ],
)
def test_repo_picture_path(src: str, doc: str, expected: str | None) -> None:
    assert repo_picture_path(src, doc) == expected


def test_left_and_empty_addresses() -> None:
    left = Picture("left", url="/img/a.png")
    assert locate_picture("pathname:///img/a.png", "docs/01.md") == left
    assert locate_picture("https://x.org/a.png", "docs/01.md").kind == "left"
    assert locate_picture("  ", "docs/01.md").kind == "empty"
    assert not locate_picture("../../a.png", "docs/01.md").in_repository


def test_markdown_destination() -> None:
    assert markdown_destination("<img/a b.png>") == "img/a b.png"
    assert markdown_destination(r"img/a\_b.png") == "img/a_b.png"
    assert markdown_destination("img/a&amp;b.png") == "img/a&b.png"


def test_upload_address_is_found_by_the_build() -> None:
    address = upload_address("static/img/uploads/upload_1.png")
    assert address == "/img/uploads/upload_1.png"
    assert repo_picture_path(address, "docs/sub/any.md") == "static/img/uploads/upload_1.png"
    with pytest.raises(ValueError):
        upload_address("docs/img/a.png")


# --------------------------------------------------------------------------- one rule only

CALLERS = {
    # the upload writes the address and shows the picture before the next pull
    "modu_desktop/core/pictures/uploads.py": "upload_address",
    "modu_desktop/core/pictures/mirror.py": "repo_picture_path",
    # the preview (a checkout on disk; the app's mirror above)
    "modu_desktop/core/preview/images.py": "repo_picture_path",
    # the publish check
    "modu_desktop/core/publish/check/mdx.py": "locate_picture",
    "modu_desktop/core/publish/check/brochure.py": "locate_picture",
    # the pictures a page names (the library, the PDF, the check's HTML pictures)
    "modu_desktop/core/pictures/found.py": "locate_picture",
    "modu_desktop/core/pictures/library.py": "page_pictures",
    "modu_desktop/cli/pdf.py": "fill_folder",
}


def _calls(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            names.add(f.id if isinstance(f, ast.Name) else getattr(f, "attr", ""))
    return names


def test_the_upload_the_preview_and_the_check_use_the_one_rule() -> None:
    for path, function in CALLERS.items():
        tree = ast.parse((ROOT / path).read_text("utf-8"))
        assert function in _calls(tree), (path, function)


def _code_strings(tree: ast.AST) -> set[str]:
    """String constants of the code, docstrings left out."""
    docstrings = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    }


def _static_prefixing(tree: ast.AST) -> bool:
    """``"static" + x``, ``"static/" + x`` or ``f"static/{x}"``: a path put into the static
    folder."""
    for n in ast.walk(tree):
        if (
            isinstance(n, ast.BinOp)
            and isinstance(n.op, ast.Add)
            and isinstance(n.left, ast.Constant)
            and n.left.value in ("static", "static/")
        ):
            return True
        if isinstance(n, ast.JoinedStr) and n.values:
            first = n.values[0]
            if isinstance(first, ast.Constant) and str(first.value) in ("static", "static/"):
                return True
    return False


def test_no_second_rule_is_left() -> None:
    # A picture rule puts a path into the static folder or reads "@site/" and "pathname://":
    # only the rule's module may.
    rule = ROOT / "modu_desktop" / "core" / "pictures" / "rule.py"
    suspicious = {"@site/", "../static/", "pathname://"}
    gone = {"repo_path_for", "resolve_image_path", "directory_image_resolver"}
    offenders = []
    for path in (ROOT / "modu_desktop").rglob("*.py"):
        if path == rule:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        found = _code_strings(tree) & suspicious
        if _static_prefixing(tree):
            found.add("static prefix")
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)} & gone
        if found or defined:
            offenders.append((path.relative_to(ROOT).as_posix(), found, defined))
    assert not offenders, offenders
    helpers = ast.parse(
        (ROOT / "modu_desktop/core/publish/check/mdx_helpers.py").read_text("utf-8")
    )
    assert "resolve_image" not in {
        n.name for n in ast.walk(helpers) if isinstance(n, ast.FunctionDef)
    }


# ----- the web admin's uploads on a project site: the base URL in front ----------------------


def test_an_address_with_the_base_url_in_front_is_found_without_it() -> None:
    repo = {"static/img/uploads/upload_1.png", "static/PNU-Modu/img/there.png"}
    got = base_url_dropped("/PNU-Modu/img/uploads/upload_1.png?v=2#x", "docs/a.md", repo)
    assert got == BaseUrlPicture("/PNU-Modu", "/img/uploads/upload_1.png?v=2#x")
    # none when the address as written is found, when nothing is found without the folder,
    # and for addresses that are not from the static folder
    assert base_url_dropped("/PNU-Modu/img/there.png", "docs/a.md", repo) is None
    assert base_url_dropped("/PNU-Modu/img/uploads/none.png", "docs/a.md", repo) is None
    assert base_url_dropped("/img/uploads/upload_1.png", "docs/a.md", repo) is None
    assert base_url_dropped("img/uploads/upload_1.png", "docs/a.md", repo) is None
    assert base_url_dropped("//PNU-Modu/img/uploads/upload_1.png", "docs/a.md", repo) is None
    assert base_url_dropped("https://x.org/img/uploads/upload_1.png", "docs/a.md", repo) is None


def test_the_real_build_stops_on_the_base_url_and_shows_the_picture_without_it() -> None:
    # The recorded build: every broken address the rule corrects is, as corrected, a picture
    # the build found, copied and put on the page under the base URL.
    oracle = json.loads(ORACLE.read_text("utf-8"))
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from picture_oracle import PICTURES
    finally:
        sys.path.pop(0)
    cases = {(c["doc"], c["src"]): c for c in oracle["cases"]}
    corrected = 0
    for case in oracle["cases"]:
        dropped = base_url_dropped(case["src"], case["doc"], set(PICTURES))
        if dropped is None:
            continue
        assert case["outcome"] == "broken", case
        assert oracle["base_url"].rstrip("/") == dropped.base
        fixed = cases[(case["doc"], dropped.address)]
        assert fixed["outcome"] == "file", fixed
        assert fixed["html_src"].startswith(oracle["base_url"] + "assets/images/"), fixed
        corrected += 1
    assert corrected >= 2  # a static picture and a web admin upload


def test_no_module_finds_pictures_with_its_own_pattern() -> None:
    # "![" or "<img" in a pattern outside the room that reads pages means a second reading
    # of pictures (the MDX scanner's own reading of Markdown is the publish check's).
    allowed = {
        "modu_desktop/core/pictures/found.py",
        "modu_desktop/core/publish/check/mdx_tables.py",
        "modu_desktop/core/preview/mdx.py",  # marks its own rendered placeholders
        "modu_desktop/ui/editing/highlighter.py",  # colours the raw text; finds no file
    }
    offenders = []
    for path in (ROOT / "modu_desktop").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel in allowed:
            continue
        strings = _code_strings(ast.parse(path.read_text("utf-8")))
        if any(("!\\[" in s or "<img" in s) and ("(" in s or "src" in s) for s in strings):
            offenders.append(rel)
    assert not offenders, offenders
