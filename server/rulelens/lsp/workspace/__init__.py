"""The editor's projects as the session sees them: roots and their cached file lists and agent
readings, open documents, settings per folder, changes on disk, the "rules changed" event, and
the staleness findings computed off the event loop, the idle-time warm-up, and the garbage
collector's pause while the server starts."""
