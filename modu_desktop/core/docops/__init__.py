"""What the web admin can do besides editing: new, import, delete, reorder, pictures."""
