"""Publishing: where a page is published, the deploy state, why a deploy failed, and the check
before a save."""
