"""Maintenance tools (documentation generation); not part of the public API."""
