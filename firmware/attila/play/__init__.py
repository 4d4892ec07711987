"""Following the game on the board: the controller and its parts (reading the
pieces, settling what changed), the plan it shows, and what it paints, says
and tests.
"""
