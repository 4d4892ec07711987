"""Online play: two boards (or a board and a browser page) play one game
through an MQTT broker. What a message says and how a remote player's
action reaches the controller; the transports live in the ports.
"""
