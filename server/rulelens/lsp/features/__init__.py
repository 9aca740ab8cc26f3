"""One module per feature of SPEC §7, each with a `register(server)` entry point."""
