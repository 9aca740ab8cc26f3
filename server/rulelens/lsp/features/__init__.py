"""One module per LSP method or rulelens command, each with `register(session)`; features import
wire/, workspace/, views/ and the session, never one another (server.py lists them in order)."""
