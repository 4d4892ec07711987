"""Line drawings of the parts for the docs: build123d's hidden-line
projection written as SVG (no renderer to install)."""

from build123d import Compound, ExportSVG, LineType

VIEW = (-1.0, -1.6, 1.3)  # from the front left, above: a player's view
HIDDEN_GREY = (160, 160, 160)


def write_svg(shapes, path, width_mm=160.0, hidden=False, view=VIEW):
    """Draw shapes (a list of solids) seen from `view`, about width_mm wide."""
    whole = Compound(children=list(shapes))
    box = whole.bounding_box()
    centre = box.center()
    reach = 4 * max(box.size.X, box.size.Y, box.size.Z)
    origin = (centre.X + view[0] * reach, centre.Y + view[1] * reach, centre.Z + view[2] * reach)
    seen, unseen = whole.project_to_viewport(origin, viewport_up=(0, 0, 1), look_at=centre)
    drawn = Compound(children=seen + (unseen if hidden else []))
    size = drawn.bounding_box().size
    svg = ExportSVG(scale=width_mm / max(size.X, size.Y), margin=2, line_weight=0.18)
    svg.add_layer("seen")
    svg.add_shape(seen, layer="seen")
    if hidden:
        svg.add_layer("hidden", line_color=HIDDEN_GREY, line_type=LineType.ISO_DOT)
        svg.add_shape(unseen, layer="hidden")
    svg.write(path)
