"""``python -m citadels_sim`` runs the ``citadels`` command."""
import sys

from .cli import main

sys.exit(main())
