"""What `make flash` builds (attila_tools.board.build): the files a board gets, and
firmware/package.json for mip. No board needed."""

import json
import os

from attila_tools.board import build

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
OTHER_LAYOUT = os.path.join(ROOT, "boards", "l-shape.json")
PROFILE = os.path.join(ROOT, "boards", "profiles", "pico.json")


def _plan():
    return build.plan(LAYOUT, PROFILE)


def test_build_compiles_every_module_but_main():
    files = _plan()
    core = build.core_sources()
    assert ("attila/game/rules.py", os.path.join(build.CORE, "game", "rules.py")) in core
    for dest, src in core:
        if dest == "attila/opponent/kernelv.py":
            # Native code, and no arch given: the board compiles it itself.
            assert files[dest] == src
            assert "attila/opponent/kernelv.mpy" not in files
            continue
        assert files[dest[:-3] + ".mpy"].endswith(".mpy")
    assert files["main.py"] == os.path.join(build.PORT, "main.py")
    for name in os.listdir(build.PORT):
        if name.endswith(".py") and name != "main.py":
            assert name[:-3] + ".mpy" in files
    assert files["layout.json"] == LAYOUT and files["profile.json"] == PROFILE
    assert files["layout.book"] == os.path.join(ROOT, "boards", "solved", "4x5.book")
    for path in files.values():
        if path.endswith(".mpy"):
            with open(path, "rb") as f:
                assert f.read(2) == b"M\x06"  # .mpy version 6: MicroPython >= 1.19


def _header(path):
    with open(path, "rb") as f:
        return f.read(4)


def test_native_code_is_compiled_for_the_boards_own_arch(tmp_path):
    """kernelv.py (viper) becomes an .mpy of the board's arch, each arch in a folder
    of its own; the rest of the plan is the same bytecode for every board."""
    out = str(tmp_path / "flash")
    plain = build.plan(LAYOUT, PROFILE, out_dir=out)
    pico = build.plan(LAYOUT, PROFILE, out_dir=out, arch="armv6m")
    pico2 = build.plan(LAYOUT, PROFILE, out_dir=out, arch="armv7emsp")
    for files, arch, number in ((pico, "armv6m", 4), (pico2, "armv7emsp", 7)):
        assert "attila/opponent/kernelv.py" not in files
        path = files["attila/opponent/kernelv.mpy"]
        assert path == os.path.join(out, "native-" + arch, "attila", "opponent", "kernelv.mpy")
        # .mpy 6.3 (native code needs the board's sub-version), the arch in bits 2..7
        assert _header(path) == b"M\x06" + bytes([number << 2 | 3]) + b"\x1f"
        rest = {k: v for k, v in files.items() if k != "attila/opponent/kernelv.mpy"}
        assert rest == {k: v for k, v in plain.items() if k != "attila/opponent/kernelv.py"}
    # The cache keeps one build per arch: asking for the RP2040's again after the
    # RP2350's gives the RP2040's file back, untouched.
    first = os.stat(pico["attila/opponent/kernelv.mpy"]).st_mtime_ns
    again = build.plan(LAYOUT, PROFILE, out_dir=out, arch="armv6m")
    assert again == pico and os.stat(again["attila/opponent/kernelv.mpy"]).st_mtime_ns == first
    assert _header(again["attila/opponent/kernelv.mpy"])[2] >> 2 == 4


def test_the_boards_arch_comes_from_its_mpy_number():
    """sys.implementation._mpy: version | sub-version << 8 | arch << 10."""
    assert build.mpy_cross_emits() == (6, 3)
    assert build.native_arch(6 | 3 << 8 | 4 << 10) == "armv6m"  # Pico, MicroPython 1.27
    assert build.native_arch(6 | 3 << 8 | 7 << 10) == "armv7emsp"  # Pico 2
    assert build.native_arch(6 | 3 << 8 | 10 << 10) == "xtensawin"  # ESP32
    assert build.native_arch(6 | 3 << 8) is None  # WebAssembly: no native emitter
    assert build.native_arch(None) is None  # no _mpy at all
    assert build.native_arch(6 | 3 << 8 | 63 << 10) is None  # an arch we do not know
    # MicroPython 1.22 reads .mpy 6.2: native code of 6.3 would not load there.
    assert build.native_arch(6 | 2 << 8 | 4 << 10) is None


def test_native_code_mpy_cross_cannot_make_stays_source(tmp_path):
    """mpy-cross 1.29 has no viper emitter for rv64imc: that board gets the source."""
    notes = []
    files = build.plan(LAYOUT, PROFILE, out_dir=str(tmp_path), arch="rv64imc", notes=notes)
    assert files["attila/opponent/kernelv.py"] == os.path.join(build.CORE, "opponent", "kernelv.py")
    assert "attila/opponent/kernelv.mpy" not in files
    assert notes == ["attila/opponent/kernelv.py stays source (the board compiles it): "
                     "SyntaxError: invalid arch"]


def test_the_layouts_setup_book_goes_with_it_and_another_layouts_book_goes(tmp_path):
    assert build.book_for(OTHER_LAYOUT) == (os.path.join(build.SOLVED, "l-shape.book"), "")
    assert build.book_for(os.path.join(ROOT, "boards", "diy-8x8.json")) == (
        None, "the layout is not solved (no diy-8x8.book in boards/solved)")
    # A layout file named like a solved one but laid out otherwise: not its book.
    with open(OTHER_LAYOUT) as f:
        data = json.load(f)
    data["name"] = "4x5"  # the modules of the L
    mine = tmp_path / "4x5.json"
    mine.write_text(json.dumps(data))
    assert build.book_for(str(mine)) == (
        None, "boards/solved/4x5.book: the book is for another layout")
    assert "layout.book" not in build.plan(str(mine), PROFILE)
    on_board = ["main.py", "layout.json", "layout.book", "game.txt", "notes.txt"]
    assert build.stale_files(on_board, build.plan(str(mine), PROFILE)) == ["layout.book"]
    assert build.stale_files(on_board, _plan()) == []


def test_package_json_lists_every_firmware_file():
    """firmware/package.json (mip) is complete: `mpremote mip install` gets the whole firmware."""
    with open(build.PACKAGE_JSON) as f:
        data = json.load(f)
    want = build.package_json()
    assert data["urls"] == want["urls"], (
        "firmware/package.json is out of date; rewrite it with "
        "`.venv/bin/python -m attila_tools.board.build --package-json`")
    targets = [t for t, _ in data["urls"]]
    for dest, _src in build.sources():
        assert dest in targets
    for _target, url in data["urls"]:
        assert os.path.isfile(os.path.join(build.FIRMWARE, url)), url
    assert "main.py" in targets


def test_package_json_urls_stay_inside_firmware():
    """mip (mpremote's and micropython-lib's) appends a relative URL to the package's
    folder, `github:OWNER/REPO/firmware/` + url, and does not resolve "..": a URL
    climbing out of firmware/ would reach raw.githubusercontent.com as
    .../firmware/../boards/4x5.json. Every URL stays below firmware/."""
    with open(build.PACKAGE_JSON) as f:
        data = json.load(f)
    for _target, url in data["urls"]:
        parts = url.split("/")
        assert ".." not in parts and "." not in parts and not url.startswith("/"), url


def test_one_version_everywhere():
    """attila.VERSION is the version: package.json is written from it, and
    pyproject.toml (which setuptools reads as text) must say the same."""
    import re

    from attila import VERSION

    with open(os.path.join(build.ROOT, "pyproject.toml")) as f:
        declared = re.search(r'^version = "([^"]+)"', f.read(), re.MULTILINE).group(1)
    with open(build.PACKAGE_JSON) as f:
        packaged = json.load(f)["version"]
    assert (declared, packaged, build.PACKAGE_VERSION) == (VERSION, VERSION, VERSION)


def test_the_vendored_libraries_go_to_lib_and_only_their_twins_are_stale():
    """micropython-lib's umqtt and hmac (firmware/lib) land in the board's /lib;
    a source flash removes their compiled twins there, never a library of the user's."""
    files = _plan()
    assert "lib/umqtt/simple.mpy" in files and "lib/hmac.mpy" in files
    source = build.plan(LAYOUT, PROFILE, source=True)
    on_board = ["lib/hmac.mpy", "lib/umqtt/simple.mpy", "lib/mine.mpy", "lib/umqtt/robust.py"]
    assert build.stale_files(on_board, source) == ["lib/hmac.mpy", "lib/umqtt/simple.mpy"]
