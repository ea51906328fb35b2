"""Formatting of results for people (text) and scripts (JSON, CSV).  Commands
never format; they call these."""
