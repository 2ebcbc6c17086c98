"""Performance benchmark: Modu Desktop's core against the web admin's request pattern.

``uv run python -m bench --docs 100 --latency-ms 50`` from the checkout (see
``docs/performance.md``). It lives beside the package, not in it: the wheel and the installer
ship ``modu_desktop`` only (``tests/test_no_benchmark_shipped.py``), and the product never
imports it (an import-linter contract).
"""
