"""One module per feature of docs/lsp.md, each with a `register(server)` entry point."""
