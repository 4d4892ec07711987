"""Where the repository's boards are, for the tests that run the simulator."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYOUT_4X5 = os.path.join(ROOT, "boards", "4x5.json")
