"""Printable parts of the board: a light baffle and a tray for each module
kind, and a case for the controller, built with build123d from the module
boards' geometry (`attila_tools.hardware.geometry`).

Each part module builds one kind of solid; `dims` holds the parts' own sizes,
`board` the board's parts as boxes for the fit checks, `checks` the checks.
"""
