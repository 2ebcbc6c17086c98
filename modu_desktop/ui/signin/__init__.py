"""Signing in: token, browser sign-in, GitHub Enterprise."""
