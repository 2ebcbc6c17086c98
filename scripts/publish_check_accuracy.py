"""How often does the publish check agree with the real site toolchain?

    uv run python scripts/publish_check_accuracy.py [--json] [--show N]

Builds the corpus of ``tests/helpers/publish_corpus.py`` (real documents, seeded variations, known
site-breakers), asks the oracle ``scripts/mdx_oracle.mjs`` (the site's own Docusaurus MDX
toolchain, then evaluation and server rendering with React) whether each document builds, and
compares with ``check_text(...).breaks_build``. Then applies the check's one-click fixes to
every document it says breaks and asks the oracle again, to measure whether the fixes work.

Needs Node and npm; the site's dependencies are installed once by tests/helpers/nodetools.py
(``site_checkout()``, cached outside the checkout).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from modu_desktop.core.publish.check import CheckResult, apply_all_fixes, check_text  # noqa: E402
from tests.helpers import publish_corpus  # noqa: E402

ORACLE = ROOT / "scripts" / "mdx_oracle.mjs"


def run_oracle(site: Path, docs: list[tuple[str, str, str]]) -> dict[str, dict]:
    """{id: result} for (id, name, text) documents."""
    lines = "".join(
        json.dumps({"id": i, "name": n, "text": t}, ensure_ascii=False) + "\n" for i, n, t in docs
    )
    done = subprocess.run(
        ["node", str(ORACLE), str(site)],
        input=lines,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(f"oracle failed:\n{done.stderr[-3000:]}")
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {r["id"]: r for r in results}


def fixed_text(text: str, path: str, paths: set[str]) -> str | None:
    """The text after applying fixes until no breaker is left (None: a breaker has no fix)."""
    for _ in range(4):
        result = check_text(text, path=path, repo_paths=paths)
        breakers = result.build_breakers
        if not breakers:
            return text
        if any(f.fix is None for f in breakers):
            return None
        text = apply_all_fixes(text, CheckResult(breakers))
    return None


def measure(site: Path, seed: int = publish_corpus.DEFAULT_SEED) -> dict:
    docs = publish_corpus.corpus(seed)
    paths = publish_corpus.site_paths()
    t0 = time.perf_counter()
    oracle = run_oracle(site, [(d.id, d.name, d.text) for d in docs])
    oracle_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    ours = {d.id: check_text(d.text, path="docs/" + d.name, repo_paths=paths) for d in docs}
    check_s = time.perf_counter() - t0
    rows = []
    for d in docs:
        o = oracle[d.id]
        r = ours[d.id]
        rows.append(
            {
                "id": d.id,
                "part": d.part,
                "builds": bool(o["ok"]),
                "predicted_builds": not r.breaks_build,
                "oracle": None if o["ok"] else f"{o['stage']}: {o['message']}",
                "ours": [f"{f.code}@{f.line}:{f.column}" for f in r.build_breakers],
            }
        )
    agree = sum(1 for r in rows if r["builds"] == r["predicted_builds"])
    breakers = [r for r in rows if r["part"] == "breaker"]
    missed = [r for r in breakers if r["predicted_builds"] or r["builds"]]
    # The fixes: apply them where the check says the build breaks, then ask the oracle again.
    to_fix = []
    unfixable = 0
    for d in docs:
        if not ours[d.id].breaks_build:
            continue
        new = fixed_text(d.text, "docs/" + d.name, paths)
        if new is None:
            unfixable += 1
        else:
            to_fix.append((d.id, d.name, new))
    fixed = run_oracle(site, to_fix) if to_fix else {}
    fixes_ok = sum(1 for r in fixed.values() if r["ok"])
    return {
        "documents": len(rows),
        "by_part": {
            p: sum(1 for r in rows if r["part"] == p)
            for p in ("real", "variation", "snippet", "breaker")
        },
        "oracle_breaks": sum(1 for r in rows if not r["builds"]),
        "agree": agree,
        "agreement": agree / len(rows),
        "false_alarms": [r for r in rows if r["builds"] and not r["predicted_builds"]],
        "misses": [r for r in rows if not r["builds"] and r["predicted_builds"]],
        "breakers": len(breakers),
        "breakers_missed": missed,
        "fix_attempted": len(to_fix),
        "fix_builds": fixes_ok,
        "fix_failed": [fixed[i] for i in fixed if not fixed[i]["ok"]],
        "no_fix_available": unfixable,
        "oracle_seconds": round(oracle_s, 1),
        "check_ms_per_doc": round(1000 * check_s / len(rows), 2),
    }


def site_build_check(site: Path, names: list[str]) -> list[tuple[str, bool, bool]]:
    """Build the real site (``npm run build``) once per known breaker (and once clean), each
    time with that one document added: (id, the build passed, the oracle said it builds)."""
    docs = {d.id: d for d in publish_corpus.breakers()}
    chosen = [("clean", "---\nid: oracle-clean\ntitle: 예시\n---\n\n본문 <br /> 입니다.\n")]
    chosen += [(n, docs[n].text) for n in names]
    oracle = run_oracle(site, [(i, "50-oracle-check.md", t) for i, t in chosen])
    out = []
    target = site / "docs" / "50-oracle-check.md"
    try:
        for doc_id, text in chosen:
            target.write_text(text, "utf-8")
            done = subprocess.run(
                ["npm", "run", "build", "--silent"],
                cwd=site,
                capture_output=True,
                text=True,
                timeout=600,
            )
            out.append((doc_id, done.returncode == 0, bool(oracle[doc_id]["ok"])))
    finally:
        target.unlink(missing_ok=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the whole report as JSON")
    ap.add_argument("--show", type=int, default=10, help="disagreements to list (default 10)")
    ap.add_argument(
        "--seed",
        type=int,
        default=publish_corpus.DEFAULT_SEED,
        help="seed of the variations (another seed = documents the rules were not tuned on)",
    )
    ap.add_argument(
        "--site-build",
        nargs="*",
        metavar="BREAKER",
        help="also build the real site with these known breakers (e.g. breaker:html-comment; "
        "~10 s each) to confirm the oracle",
    )
    args = ap.parse_args(argv)
    from tests.helpers.nodetools import site_checkout

    site = site_checkout()
    if args.site_build:
        for doc_id, built, oracle_ok in site_build_check(site, args.site_build):
            verdict = "agrees" if built == oracle_ok else "DISAGREES"
            print(f"site build with {doc_id}: {'passed' if built else 'failed'}; oracle {verdict}")
        return 0
    report = measure(site, args.seed)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(f"seed {args.seed}")
    print(
        f"corpus: {report['documents']} documents {report['by_part']}; "
        f"{report['oracle_breaks']} break the real build"
    )
    print(
        f"agreement with the real toolchain: {report['agree']}/{report['documents']} = "
        f"{100 * report['agreement']:.1f} %"
    )
    print(
        f"false alarms: {len(report['false_alarms'])}; misses: {len(report['misses'])}; "
        f"known site-breakers missed: {len(report['breakers_missed'])}/{report['breakers']}"
    )
    print(
        f"one-click fixes: {report['fix_builds']}/{report['fix_attempted']} fixed documents "
        f"build; {report['no_fix_available']} breaking documents need a hand-made fix"
    )
    print(
        f"time: oracle {report['oracle_seconds']} s for the corpus; "
        f"check {report['check_ms_per_doc']} ms per document"
    )
    for label in ("misses", "false_alarms", "breakers_missed", "fix_failed"):
        for r in report[label][: args.show]:
            print(f"  {label}: {json.dumps(r, ensure_ascii=False)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
