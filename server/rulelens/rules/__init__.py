"""Boost's rule format: read, match, record, index and check `.ai/rules`.

Exports nothing, so that importing one part (say, the glob dialect) does not load the others;
import the module that holds what you use. ARCHITECTURE.md maps the packages.
"""
