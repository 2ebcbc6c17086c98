"""The repository's documents: listing and loading through the git database, the persisted list, a
document's history."""
