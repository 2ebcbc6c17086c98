"""The page editor: a document as a column of cards (:mod:`.page_editor`) — brochure blocks with
their forms (:mod:`.block_card`), rich text (:mod:`.text_card` over :mod:`.richdoc`), and the
raw text of what cards cannot hold (:mod:`.raw_card`) — all views of the one document text."""
