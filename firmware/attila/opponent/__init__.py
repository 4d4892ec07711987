"""The computer opponent: its levels, the Planner that searches a slice per
loop step, the search and its kernels, and what it knows by heart (the setup
book, the opening table, the solved game on a microSD card).
"""
