"""``python -m driver`` runs the ``shimgl`` command line."""

import sys

from .cli import main

sys.exit(main())
