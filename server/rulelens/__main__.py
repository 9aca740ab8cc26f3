"""`python -m rulelens`, for clients that start the server through an interpreter."""

import sys

from rulelens.cli import main

sys.exit(main())
