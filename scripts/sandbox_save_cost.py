"""What a save costs the sandbox itself, without latency: the recursive tree read (the lock
check) and the PUT of one document, at 100 and 1,000 generated documents (docs/performance.md,
"the save at 1,000 documents").

    uv run python scripts/sandbox_save_cost.py [--runs 8]
"""

from __future__ import annotations

import argparse
import base64
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: bench/

from bench.gen import generate  # noqa: E402
from bench.server import BRANCH, NAME, OURS, OWNER, SandboxHandle  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=8)
    runs = ap.parse_args().runs
    for n in (100, 1000):
        root = Path(tempfile.mkdtemp())
        generate(root, n)
        with SandboxHandle(root, 0, "process") as sb:
            c = httpx.Client(headers={"Authorization": f"token {OURS.token}"}, base_url=sb.api_url)
            repo = f"/repos/{OWNER}/{NAME}"
            tree_ms, parse_ms, put_ms = [], [], []
            for i in range(runs):
                t = time.perf_counter()
                r = c.get(f"{repo}/git/trees/{BRANCH}?recursive=1")
                got = time.perf_counter()
                entries = r.json()["tree"]
                parsed = time.perf_counter()
                doc = [e for e in entries if e["path"].startswith("docs/") and e["type"] == "blob"][
                    1
                ]
                body = {
                    "message": f"docs(edit): update {doc['path']}",
                    "content": base64.b64encode(f"x{i}".encode()).decode(),
                    "sha": doc["sha"],
                    "branch": BRANCH,
                }
                t2 = time.perf_counter()
                assert c.put(f"{repo}/contents/{doc['path']}", json=body).status_code == 200
                put_ms.append((time.perf_counter() - t2) * 1000)
                tree_ms.append((got - t) * 1000)
                parse_ms.append((parsed - got) * 1000)
            print(
                f"{n} documents: tree {statistics.median(tree_ms):.1f} ms, parse "
                f"{statistics.median(parse_ms):.1f} ms, PUT {statistics.median(put_ms):.1f} ms"
            )


if __name__ == "__main__":
    main()
