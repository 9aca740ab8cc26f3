"""Results turned into words: text, JSON, Markdown, SARIF, GitHub annotations, one wording.

Every front renders through here; the core (rules/, agents/) never imports it.
"""
