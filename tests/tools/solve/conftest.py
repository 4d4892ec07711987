import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# retrokit (here) and the brute force over the rules (tests/opponent/brute.py).
sys.path[:0] = [HERE, os.path.join(os.path.dirname(os.path.dirname(HERE)), "opponent")]
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
