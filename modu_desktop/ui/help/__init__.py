"""The Help menu and what it opens: the short guide, the shortcuts, the problem report, the
new-version check, About; the crash dialog and the token-expiry warning."""
