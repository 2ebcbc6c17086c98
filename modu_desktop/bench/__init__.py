"""Performance benchmark: Modu Desktop's core against the web admin's request pattern (issue 7).

``uv run python -m modu_desktop.bench --docs 100 --latency-ms 50`` (see ``docs/performance.md``).
Not imported by the application; not collected by the default test run.
"""
