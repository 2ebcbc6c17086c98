"""PySide6 widgets (thin): they call the core and render its state."""
