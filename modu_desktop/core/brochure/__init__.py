"""What a brochure page is made of: front matter, the ::: block syntax, the block catalogue and
examples, the site's themes and layouts."""
