"""Saving a document: the save service, the durable save queue, conflicts and drafts."""
