"""Search across every page of the brochure, and the plan of a replacement (Qt-free).

``reading`` reads a page into the fields a person sees on its cards, each character with the
Markdown it came from (``inline_map``); ``matching`` compares the Korean way; ``index`` keeps
every listed page's fields from the blob cache and answers searches without a request
(``kept`` keeps them on disk for the next start); ``replace`` plans a replacement across pages
(new texts, ticks, pages left out); ``words`` says places and refusals. ``model`` holds the
plain data they exchange.
"""
