"""python -m attila_sim: the same as `attila sim` (its errors printed as the command's)."""

import sys

from attila_tools.cli import main

sys.exit(main(["sim"] + sys.argv[1:]))
