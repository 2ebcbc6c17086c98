"""Publishing: the check before a save, the failed-deploy notice, the document history."""
