"""Document operations: new, import, delete, reorder, pictures."""
