"""The glob engines: Boost's dialect (`boost`), and those the agents match with, each a reading
of one library as that agent calls it.

Every agent chooses an engine and its options here (`dialects`): picomatch (`picomatch`, a port
of its compiler), minimatch (`minimatch`), VS Code's `glob.ts`, gitignore-style and wcmatch's
globstar dialects, and `plain_globs`, which answers the plainest globs for all of them without
compiling anything. Boost's own glob dialect is not here: it is part of Boost's format
(`glob_engines/boost.py`). This package imports only `rules.format` below it.
"""
