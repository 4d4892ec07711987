"""The game itself: layouts of squares, the rules on bitboards, notation.

Nothing here knows there is a board: the tools, the solver and the
simulator use these modules as they are.
"""
