"""Judging a played game with perfect play: `attila analyse` and the simulator's panel."""
