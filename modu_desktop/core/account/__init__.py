"""Signing in and the account's state (Qt-free)."""
