"""Search across every page in the window: the document list's search mode, its results,
and the hand-over to the replace review."""
