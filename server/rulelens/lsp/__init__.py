"""`rulelens serve`: the language server (docs/lsp.md has the layout and its layering).

`command.py` is the command's options, `main.py` serves; `server.py` builds a session and
registers the features; `session.py` is the per-connection state; `features/` one module per
method or command; `writes.py` the steps every write command takes; `views/`, `workspace/` and
`wire/` what the features stand on."""
