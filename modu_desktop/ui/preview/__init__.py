"""The live preview in Qt WebEngine (the Qt side of :mod:`modu_desktop.core.preview`).

* :mod:`.pane` — ``PreviewPane``, the editor's preview widget (its view made at the first render);
* :mod:`.engine` — WebEngine itself: start-up flags, URL schemes, the locked-down profile, pages;
* :mod:`.pdf` — PDF export with the site's print rules (the window's and ``export-pdf``'s);
* :mod:`.wiring` — ``attach_preview(window)``: the branch's site style and "Save as PDF…".

Nothing is imported here: the start-up imports ``.engine``'s QtCore-only part before the first
paint, and WebEngine's own modules only when a preview is first shown.
"""
