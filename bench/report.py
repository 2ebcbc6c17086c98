"""The readable table (Markdown, so it can go into docs/performance.md as is)."""

from __future__ import annotations

from typing import Any

ROWS = (
    ("list_cold", "list, cold (empty cache)"),
    ("list_warm", "list, warm (unchanged repo)"),
    ("list_restart", "list, restart (disk cache kept)"),
    ("open_uncontended", "open, uncontended"),
    ("open_contended", "open, contended (to the dialog)"),
    ("heartbeat", "heartbeat"),
    ("save", "save"),
    ("close", "close"),
    ("takeover_notice", "a take-over, noticed by the one who lost it"),
)


def _cell(s: dict[str, Any] | None) -> str:
    if not s or not s.get("runs"):
        return "–"
    req = s["requests"]
    req_s = f"{req:g}" if isinstance(req, float) else str(req)
    return f"{s['wall_ms']:.0f} ms / {req_s} req"


def _ratio(a: dict[str, Any] | None, w: dict[str, Any]) -> str:
    if not a or not a.get("runs") or not w.get("wall_ms"):
        return "–"
    return f"{a['wall_ms'] / w['wall_ms']:.2f}×"


def table(report: dict[str, Any]) -> str:
    out: list[str] = []
    for c in report["configs"]:
        out.append(
            f"\n### {c['docs']} documents (+1 big) @ {c['latency_ms']} ms latency "
            f"(1 round trip = {c['round_trip_ms']:.0f} ms; medians of {c['runs']} runs, "
            f"cold list {c['cold_runs']})\n"
        )
        out.append(
            "| action | ours (app today) | ours, proposed | web admin | "
            "ratio ours/web | proposed/web | ours in RT |"
        )
        out.append("|---|---|---|---|---|---|---|")
        for key, label in ROWS:
            a = c["actions"][key]
            o, p, w = a["ours"], a.get("ours_proposed"), a["webadmin"]
            rts = f"{o['wall_ms'] / c['round_trip_ms']:.2f}" if c["round_trip_ms"] else "–"
            out.append(
                f"| {label} | {_cell(o)} | {_cell(p)} | {_cell(w)} | {_ratio(o, w)} | "
                f"{_ratio(p, w)} | {rts} |"
            )
        oc = c["actions"]["open_contended"]["ours"]
        if oc.get("dialog_ms") is not None:
            out.append(
                f"\nOpen, someone editing: the dialog opens at {oc['dialog_ms']:.1f} ms from the "
                f"list's cached lock; the holder is confirmed from fresh data at "
                f"{oc['wall_ms']:.0f} ms ({oc['requests_max']} request)."
            )
        th = c.get("archive_threshold") or []
        if th:
            out.append(
                f"\nFirst list with k blobs missing (threshold in the store: "
                f"{c.get('archive_min_missing')}): "
                + "; ".join(
                    f"k={r['missing']}: blobs {r['blobs']['wall_ms']:.0f} ms/"
                    f"{r['blobs']['requests']} req, archive {r['archive']['wall_ms']:.0f} ms/"
                    f"{r['archive']['requests']} req"
                    for r in th
                )
                + "."
            )
        g = c.get("gitdata")
        if g:
            ch, bc = g["changes"], g["blob_cache"]
            after = bc["after_prune"] or bc["after_first_list"]
            out.append(
                f"\nA save that meets another person's save asks after "
                f"{g['save_conflict_reads_before_question']} reads "
                f"({g['save_conflict']['requests']} requests in all); {ch['files']} pages in one "
                f"commit: {ch['requests']} requests, {ch['commits']} commit, "
                f"{ch['wall_ms']:.0f} ms; the blob cache at {bc['docs']} documents: "
                f"{after['disk_bytes'] / 1048576:.1f} MB on disk ({after['files']} files)."
            )
        if "startup" in c:
            st = c["startup"]
            base = c.get("qt_import", report.get("qt_import", {})).get("median_ms")
            w_x, c_x = (
                (st["warm"]["median_ms"] / base, st["cold"]["median_ms"] / base)
                if base
                else (0.0, 0.0)
            )
            rel = f" = {w_x:.2f}× / {c_x:.2f}× the bare Qt import ({base:.0f} ms)" if base else ""
            out.append(
                f"\nStart-up to first listed document (real app, `--api-url`): warm "
                f"(last list shown) {st['warm']['median_ms']:.0f} ms, cold "
                f"{st['cold']['median_ms']:.0f} ms{rel}. Fresh list: warm "
                f"{st['warm'].get('fresh_median_ms', 0):.0f} ms, cold "
                f"{st['cold'].get('fresh_median_ms', 0):.0f} ms."
            )
            nb = st.get("warm_no_bytecode")
            base_nb = report.get("qt_import_no_bytecode", {}).get("median_ms")
            if nb and base_nb:
                out.append(
                    f"Without a bytecode cache (this dev venv as is): warm "
                    f"{nb['median_ms']:.0f} ms = {nb['median_ms'] / base_nb:.2f}× the bare "
                    f"Qt import ({base_nb:.0f} ms)."
                )
    if "startup_practice" in report:
        sp = report["startup_practice"]
        base = sp.get("qt_import", {}).get("median_ms")
        rel = f" = {sp['median_ms'] / base:.2f}× the bare Qt import ({base:.0f} ms)" if base else ""
        out.append(
            f"\nPractice mode (`--sandbox`, in-process, no latency): "
            f"{sp['median_ms']:.0f} ms to the first listed document{rel}; fresh list "
            f"{sp.get('fresh_median_ms', 0):.0f} ms."
        )
    if "doc_list" in report:
        dl = report["doc_list"]
        out.append(
            f"\nDocument list with {dl['rows']} rows: listed (set_rows + repaint) in "
            f"{dl['list_ms']} ms; a filter keystroke (filter + repaint) max "
            f"{dl['keystroke_max_ms']} ms, median {dl['keystroke_median_ms']} ms."
        )
    if "stall" in report:
        st = report["stall"]
        ui, core = st["ui"], st["core"]
        out.append(
            f"\nEvent-loop stall while listing {st['docs']} docs cold @ "
            f"{st['latency_ms']} ms "
            f"(QTimer 5 ms probe): app `refresh_list` max {ui['max_stall_ms']} ms "
            f"({ui['stalls_over_50ms']} over 50 ms, list {ui['list_s']} s); core only max "
            f"{core['max_stall_ms']} ms ({core['stalls_over_50ms']} over 50 ms)."
        )
    if "memory" in report:
        m = report["memory"]
        out.append(
            f"\nPeak memory ({m['rows']} docs listed, big doc open with preview): "
            f"{m['peak_mb']} MB RSS high-water mark (Qt app {m['qt_app_kb'] // 1024} MB, "
            f"window {m['window_kb'] // 1024} MB, listed {m['listed_kb'] // 1024} MB, "
            f"opened {m['opened_kb'] // 1024} MB); before the preview's first use "
            f"{m['before_preview_peak_mb']} MB; with the renderer processes "
            f"{m['with_renderer_mb']} MB."
        )
    if report.get("targets"):
        out.append("\n### Targets\n")
        out.append("| target | config | value | limit | met |")
        out.append("|---|---|---|---|---|")
        for t in report["targets"]:
            met = "✅" if t["met"] else ("–" if t["met"] is None else "❌")
            out.append(f"| {t['target']} | {t['config']} | {t['value']} | {t['limit']} | {met} |")
    return "\n".join(out) + "\n"
