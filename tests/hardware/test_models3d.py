"""KiCad's 3D models shipped for the renders: every part the boards show has one
(or KiCad's library has none), each with its licence."""

import os

from attila_tools.hardware import models3d


def test_every_model_the_boards_show_is_shipped_or_absent_from_kicads_library():
    assert models3d.missing() == [], "python -m attila_tools.hardware.models3d --fetch"


def test_each_shipped_model_has_its_licence_written_beside_it():
    with open(os.path.join(models3d.MODELS, "LICENSE.md"), encoding="utf-8") as f:
        text = f.read()
    for want in models3d.wanted():
        if os.path.exists(os.path.join(models3d.MODELS, want)):
            line = [ln for ln in text.splitlines() if ln.startswith("- `%s`" % want)]
            assert line and ("CC-BY-SA-4.0-with-exception" in line[0] or "GPL-3+" in line[0]), want
    assert "Attribution-ShareAlike 4.0 International" in text


def test_the_last_copyright_stanza_that_matches_a_file_gives_its_licence():
    text = ("Files: *\nCopyright: 2018, KiCad\nLicense: A\n\n"
            "Files: Lib.3dshapes/*\nCopyright: 2017, StepUp\nLicense: B\n\n"
            "Files: Lib.3dshapes/x.step\n Lib.3dshapes/y.step\nCopyright: 2019, Someone\nLicense: C\n\n"
            "License: B\n The text of B.\n .\n Second paragraph.\n")
    found, texts = models3d.licences(text, ["Lib.3dshapes/x.step", "Lib.3dshapes/z.step", "Other/q"])
    assert found == {"Lib.3dshapes/x.step": ("2019, Someone", "C"),
                     "Lib.3dshapes/z.step": ("2017, StepUp", "B"), "Other/q": ("2018, KiCad", "A")}
    assert texts["B"] == "The text of B.\n\nSecond paragraph."
