"""`rulelens serve`: the language server (docs/lsp.md). `server.py` is the lifecycle and the list of
features; each feature is a module in `features/` with `register(server)`; `plumbing/` holds
what they stand on; `payloads.py` is the wire contract of rulelens's own methods."""
