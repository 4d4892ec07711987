"""From the reed switches to an occupancy: scanning the wirings, the module
chain's order and its check, and the debounce that holds each change.
"""
