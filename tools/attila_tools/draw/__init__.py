"""Drawing positions and layouts: coloured terminal text and SVG/PNG pictures."""
