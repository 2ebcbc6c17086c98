"""Documents of the brochure repository: the store (read and write through the git database)
and where the pictures a document names are (:mod:`.pictures`)."""

# The store's names, for the callers that import them from the package.
from modu_desktop.core.documents.store import *  # noqa: F403
from modu_desktop.core.documents.store import ARCHIVE_MIN_MISSING as ARCHIVE_MIN_MISSING
from modu_desktop.core.documents.store import find_doc as find_doc
from modu_desktop.core.documents.store import sort_docs as sort_docs
