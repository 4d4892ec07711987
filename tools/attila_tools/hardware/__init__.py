"""The board as hardware: the KiCad boards' generator, their checks and outputs, printable parts.

The generator, step by step (boards/pcb/README.md says more):
catalogue, circuit, circuit_controller, pinout (parts and nets) -> geometry,
place, place_controller (placement) -> route_cell, route_spine,
route_controller (routing, data in route) -> schematic, pcbgen, generate (the
KiCad files) -> board_checks (DRC, ERC, the copper against the firmware) ->
outputs (what a fab and a maker need). `attila hardware` (command) runs it
for other pitches and modules.
"""
