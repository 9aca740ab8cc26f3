"""Rule text that names what the project no longer has, and rules whose code moved on.

`DRIFT_AFTER` lives here rather than in `drift`, which says why it is 20: the command line's
parser shows it as `--drift-after`'s default, and importing `drift` for it would load the history
code (and pathspec) before `check` has started git's file listing.
"""

DRIFT_AFTER = 20
