import sys

# retrokit (here) and the brute force over the rules (tests/opponent/brute.py)
# come from pytest's path (pyproject.toml's pythonpath).
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
