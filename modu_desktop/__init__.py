"""Modu Desktop: a desktop editor for the PNU-Modu brochure CMS."""

__version__ = "0.1.0"
APP_NAME = "Modu Desktop"
