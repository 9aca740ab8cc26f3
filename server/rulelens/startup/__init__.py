"""What a process does at its start, before the rest of rulelens is imported, for every front:
the code that libraries generate at import (attrs, cattrs, dataclasses), compiled once and kept
(`compiled`). An interception of the standard library (ARCHITECTURE.md, "Interceptions"); it
knows no rule, agent or front."""
