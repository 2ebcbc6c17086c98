"""The page editor's core (Qt-free): a document as cards, and rich text that saves site-safe
Markdown.

- :mod:`.segments` — a document split into front matter, brochure blocks, rich-text runs and
  raw ("원문") runs, with exact spans whose joined text is the document byte for byte.
- :mod:`.model` — the small document model of a text card (paragraphs, headings 2–4, lists,
  quotes, tables, pictures, line breaks; bold, italic, strikethrough, links).
- :mod:`.reading` — Markdown → model, as the site reads it (None where a card cannot hold it).
- :mod:`.writing` — model → Markdown the site renders exactly as the card showed it, keeping the
  original bytes of every paragraph the user did not change.
- :mod:`.readable` — a whole page as the lines a person reads on its cards (the conflict
  dialog's side-by-side reading).
"""
