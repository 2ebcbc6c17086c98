"""The document list: its model, its panel and the lock badges it shows."""
