"""The open document: editor, front matter form, find, conflicts, drafts, the session's words."""
