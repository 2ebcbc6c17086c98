"""Publishing: where a page is published, the deploy state, why a deploy failed (and which page,
saved by whom: ``blame``), each document's state for the window (``status``), and the check
before a save."""
