import sys

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
