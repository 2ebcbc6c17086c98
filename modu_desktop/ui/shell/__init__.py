"""The window around the work: app start, main window, its widgets, menus, status, jobs."""
