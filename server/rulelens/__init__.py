"""rulelens: the project rules an AI coding agent sees, shown to people."""

__version__ = "0.1.0"
