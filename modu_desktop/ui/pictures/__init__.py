"""Pictures in the window: the 그림 dialog, uploads from it and from the editor, over
``core/pictures``."""
