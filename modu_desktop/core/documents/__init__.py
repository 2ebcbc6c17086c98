"""The repository's documents: listing and loading through the git database, where the
pictures a document names are, the persisted list, a document's history."""
