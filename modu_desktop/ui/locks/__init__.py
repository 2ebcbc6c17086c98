"""Who holds a document: the lock question, notify-when-free."""
