"""`python -m recycle …`: the same as the `recycle` command."""
import sys

from recycle.cli import main

sys.exit(main())
