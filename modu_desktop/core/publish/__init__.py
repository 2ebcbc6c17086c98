"""Publishing (Qt-free): where a saved page is published (``site``), what the site's build is
doing for a save and which page stopped it (``status``, ``blame``)."""
