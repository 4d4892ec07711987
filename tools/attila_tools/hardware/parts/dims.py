"""The printed parts' own sizes (mm), in one place; the board's are in geometry.

Heights in a tray, from the table up: feet, floor, the posts the board is
screwed to, the board, the baffle on the board, the top plate on the baffle,
flush with the top of the tray's wall.
"""

from attila_tools.hardware import geometry

FIT = 0.3  # gap between the board (and the baffle, the plate) and the tray's wall
WALL = geometry.EDGE - FIT  # the tray's wall: it and FIT fill the board's EDGE
FLOOR = 2.0  # printed flat on the bed: the tray needs no supports
# The IDC headers hang 9.1 mm under the board; a plug mated in one stands
# about 4 mm further, and its ribbon bends flat onto the floor.
STANDOFF = 15.0  # board bottom above the floor
POST_D = 7.0  # the posts under the board's M3 holes
PILOT_D = 2.6  # an M3 screw cuts its thread in a printed post
# A notch at the foot of the wall in the middle of every square's edge on the
# outline: neighbours' notches meet whatever the layout, and a crimped 2x4
# IDC plug (about 15 x 9 mm) passes through on its side.
NOTCH_W = 18.0
NOTCH_H = 10.0

# The M3 screws that hold the board on its posts: pan heads on the board's top.
SCREW_HEAD_D = 5.6
SCREW_HEAD_H = 2.4

# Light baffle: one cell a square around its LED, on the board's top.
BAFFLE_H = 5.0  # the LED's light spreads to fill its square on the plate
CELL_WALL = 1.6  # walls between squares (four 0.4 mm lines)
CLEARANCE = 0.5  # from every part on the board's top to the baffle
# The 74HC165 sits on the middle column's wall line (geometry.register_at):
# the wall's foot is notched over its SOIC-16 courtyard, lying along x.
REGISTER_BODY = (10.4, 7.4)
RELIEF = 0.6  # around a screw head under a wall, and above it
# A cell's centre to its LED, along x and along y: a cell on the module's
# outline is closed by the tray's wall, (WALL - CELL_WALL / 2) / 2 = 0.2 mm off.
CENTRE_TOL = 0.5

PLATE = 3.0  # the top plate: 3 mm opal (light-diffusing) cast acrylic
PLATE_GAP = FIT  # the plate's gap to the tray's wall, all round

# Magnets that lock the trays edge to edge: in blocks standing on the bed
# against the wall, flush with the tray's outer face, two on every square's edge on
# the tray's outline, MAGNET_AT from the edge's ends, facing out with
# opposite poles (see tray.magnets). Low in the tray, far from the switches.
MAGNET_D = 6.0  # the pieces' own 6 x 2 mm neodymium discs
MAGNET_T = 2.0
MAGNET_FIT = 0.15  # pocket over the magnet, each way: a press fit with glue
MAGNET_AT = 6.0
# Around each cable connector's centre (geometry.connectors): a 2x4 box
# header's courtyard and its plug (geometry.CONNECTOR_KEEPOUT). A magnet that
# would come near is left out; the holes keep clear of it (geometry.mounting_holes).
CONNECTOR_KEEPOUT = geometry.CONNECTOR_KEEPOUT
BLOCK_L = MAGNET_D + 2 * 1.2  # along the edge: the pocket and two walls
BLOCK_W = MAGNET_T + MAGNET_FIT + 1.0  # inwards: the pocket and its back wall
BLOCK_H = MAGNET_D + 2 * 1.2

BOARD_Z = FLOOR + STANDOFF  # the board's bottom
BAFFLE_Z = BOARD_Z + geometry.THICKNESS
PLATE_Z = BAFFLE_Z + BAFFLE_H
TOP_Z = PLATE_Z + PLATE  # the top of the tray's wall and of the plate
MAGNET_Z = BLOCK_H / 2  # blocks on the bed, through the floor: far below the switches

DENSITY = 1.24  # g/cm3: PLA (PETG 1.27)
