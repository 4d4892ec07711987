"""Printable parts of the board: a light baffle and a tray for each module
kind, and a case for the controller, built with build123d from the module
boards' geometry (`attila_tools.hardware.geometry`).

    dims        the printed parts' own sizes, in one place
    tray, baffle, case   one kind of solid each (controller: the case's board)
    board       the boards' parts as boxes, read from their .kicad_pcb
    checks, mesh, field  the fit checks, the STL's closed-solid check, the
                magnets' pull on the reed switches
    layout, picture, export   placing trays by a layout file, line drawings,
                `make hardware-parts`
"""
