"""The site's pictures (Qt-free): where a picture a page names lives (``rule``), the pictures a
page names and their places (``found``), a safe and unique name for a new file (``names``),
pixel sizes from file headers (``pixels``), uploads (``uploads``), the repository's pictures
mirrored for the preview (``mirror``) and the picture library (``library``)."""
