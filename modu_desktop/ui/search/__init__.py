"""Search across every page in the window (the Qt side of ``core/search``)."""
