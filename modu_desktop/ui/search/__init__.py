"""Search across every page in the window (the Qt side of ``core/search``): the document list's
search mode, its results, and the review before a replacement across pages."""
