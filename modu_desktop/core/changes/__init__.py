"""One commit that changes many files, safely: over the head the caller read, leaving out the
pages someone else holds or that changed since, moving the branch only as a fast forward."""
