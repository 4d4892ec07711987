"""The fab's rules, written into each board's .kicad_pro (KiCad's DRC reads them there).

A common low-cost 2-layer service (JLCPCB's and PCBWay's standard 2-layer,
1.6 mm FR-4, 1 oz copper) makes 0.127 mm tracks and gaps, 0.3 mm drills and
0.15 mm annular rings; the boards keep a margin over that: the minimums
below are what KiCad's DRC holds every board to, the net classes what the
generator lays.
"""

import json

LAYERS = 2
MIN = {
    "min_track_width": 0.15,
    "min_clearance": 0.15,
    "min_via_diameter": 0.6,
    "min_via_annular_width": 0.15,
    "min_through_hole_diameter": 0.3,
    "min_hole_to_hole": 0.5,
    "min_hole_clearance": 0.25,
    "min_copper_edge_clearance": 0.3,
    "min_silk_clearance": 0.0,
    "min_text_height": 0.8,
    "min_text_thickness": 0.08,
    "min_connection": 0.0,
    "min_microvia_diameter": 0.2,
    "min_microvia_drill": 0.1,
    "min_resolved_spokes": 2,
    "solder_mask_to_copper_clearance": 0.0,
    "max_error": 0.005,
    "allow_blind_buried_vias": False,
    "allow_microvias": False,
    "use_height_for_length_calcs": True,
}
SIGNAL = {"track": 0.25, "clearance": 0.2, "via": 0.6, "drill": 0.3}
# The power class carries the LEDs' supply: as much as the input's fuse lets
# through (its trip current, 1.5 A) at a 10 C rise (current.py holds every
# track of it to what it carries).
POWER = {"track": 0.6, "clearance": 0.2, "via": 0.8, "drill": 0.4}
POWER_NETS = ("+5V", "GND", "+3V3", "VBUS", "VSYS", "VIN", "VIN_FUSED")


def net_class(net):
    """The net class a net's tracks and vias are laid with (SIGNAL or POWER)."""
    return POWER if net in POWER_NETS else SIGNAL

# KiCad's own defaults hold for every other check (none is set to ignore
# here); these, warnings or off by default, are errors on our boards: a
# silkscreen a maker cannot read, or a hole a part or its plug sits over.
ERRORS = ("silk_overlap", "silk_over_copper", "silk_edge_clearance", "npth_inside_courtyard",
          "pth_inside_courtyard", "missing_courtyard")


def _class(name, c, priority):
    return {"name": name, "clearance": c["clearance"], "track_width": c["track"],
            "via_diameter": c["via"], "via_drill": c["drill"], "microvia_diameter": 0.3,
            "microvia_drill": 0.1, "diff_pair_gap": 0.25, "diff_pair_via_gap": 0.25,
            "diff_pair_width": 0.2, "wire_width": 6, "bus_width": 12, "line_style": 0,
            "schematic_color": "rgba(0, 0, 0, 0.000)", "pcb_color": "rgba(0, 0, 0, 0.000)",
            "priority": priority}


def project(name):
    """The .kicad_pro of a board, as text."""
    severities = {k: "error" for k in ERRORS}
    pro = {
        "board": {"design_settings": {
            "defaults": {"board_outline_line_width": 0.1, "copper_line_width": 0.2,
                         "silk_line_width": 0.12, "silk_text_size_h": 1.0,
                         "silk_text_size_v": 1.0, "silk_text_thickness": 0.15},
            "rule_severities": severities,
            "rules": MIN,
            "track_widths": [0.0, SIGNAL["track"], POWER["track"]],
            "via_dimensions": [{"diameter": 0.0, "drill": 0.0},
                               {"diameter": SIGNAL["via"], "drill": SIGNAL["drill"]}],
        }},
        "boards": [],
        "erc": {"erc_exclusions": [], "meta": {"version": 0}, "pin_map": [],
                "rule_severities": {}},
        "libraries": {"pinned_footprint_libs": [], "pinned_symbol_libs": []},
        "meta": {"filename": name + ".kicad_pro", "version": 3},
        "net_settings": {
            "classes": [_class("Default", SIGNAL, 2147483647), _class("Power", POWER, 0)],
            "meta": {"version": 4},
            "net_colors": None,
            "netclass_assignments": None,
            "netclass_patterns": [{"netclass": "Power", "pattern": n} for n in POWER_NETS],
        },
        "pcbnew": {"last_paths": {}, "page_layout_descr_file": ""},
        "schematic": {"legacy_lib_dir": "", "legacy_lib_list": []},
        "sheets": [],
        "text_variables": {},
    }
    return json.dumps(pro, indent=2, sort_keys=True) + "\n"


def _table(kind, entries):
    rows = "".join('\t(lib (name "%s")(type "KiCad")(uri "%s")(options "")(descr ""))\n'
                   % (name, uri) for name, uri in entries)
    return "(%s_lib_table\n\t(version 7)\n%s)\n" % (kind, rows)


def footprint_table(parts):
    """The project's fp-lib-table: KiCad's own libraries the board's footprints
    come from (DRC checks each footprint against its library)."""
    libs = sorted({p["footprint"].split(":")[0] for p in parts if p["footprint"]})
    return _table("fp", [(lib, "${KICAD9_FOOTPRINT_DIR}/%s.pretty" % lib) for lib in libs])


def symbol_table(parts):
    """The project's sym-lib-table: KiCad's own symbol libraries (ERC checks each
    symbol against its library; `power` holds the schematic's PWR_FLAGs)."""
    libs = sorted({p["symbol"].split(":")[0] for p in parts} | {"power"})
    return _table("sym", [(lib, "${KICAD9_SYMBOL_DIR}/%s.kicad_sym" % lib) for lib in libs])
