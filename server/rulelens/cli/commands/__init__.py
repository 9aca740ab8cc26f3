"""One module per command: `EXAMPLE`, `arguments(parser)` and `run(run) -> exit code`.

Keep the top of each module light (argparse only): the core is imported inside `run`.
"""
