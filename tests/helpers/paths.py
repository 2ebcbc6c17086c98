"""Where the tests find the checkout and their fixtures."""

from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
FIXTURES = CHECKOUT / "tests" / "fixtures"
SITE_FIXTURE = FIXTURES / "pnu-modu-site"
SAMPLE_REPO = FIXTURES / "pnu-modu"
