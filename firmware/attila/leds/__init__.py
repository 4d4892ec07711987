"""From a picture to the strip: the frames painted square by square, the
palette, and the bytes the LEDs are sent in their chain's order.
"""
