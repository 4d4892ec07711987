"""python -m attila_sim: the same as `attila sim`."""

import sys

from attila_sim.app import main

sys.exit(main(sys.argv[1:]))
