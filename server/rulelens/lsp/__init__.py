"""`rulelens serve`: the language server (SPEC §7), one module per feature; `server.py` wires them."""
