"""Helpers shared by the tests: paths, languages, Node tools, corpora."""
