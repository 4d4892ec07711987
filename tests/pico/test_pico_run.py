"""tools/pico/run.py --firmware: a script on the chip with the firmware flashed."""

import os
import subprocess
import sys

from conftest import ROOT

RUN = os.path.join(ROOT, "tools", "pico", "run.py")


def test_firmware_import_main_runs_the_boards_loop_and_shows_it(mpy_dir):
    """The README's `run.py --firmware -c "import main"` used to print nothing
    (main.py's main() runs only as the boot script, and the maintenance file that
    keeps the boot quiet stopped it anyway)."""
    proc = subprocess.run([sys.executable, RUN, "--firmware", "-c", "import main",
                           "--ticks", "30"], capture_output=True, text=True, cwd=ROOT,
                          timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "attila: 4x5 on pico, 20 squares", proc.stdout
    assert "Romans: place a knight on a lit square (knight 1 of 3)" in lines, proc.stdout
    assert proc.stderr.startswith("run.py: import main: running main.main(ticks=30)")
    # The emulated chip's page shows this very run (docs/pages/flash/emulated.md).
    with open(os.path.join(ROOT, "docs", "pages", "flash", "emulated.md"), encoding="utf-8") as f:
        page = f.read()
    shown = page.split('--ticks 30\n', 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line[4:] for line in shown[1:]] == lines
    assert shown[0].strip().startswith(proc.stderr.splitlines()[0])


def test_unplug_pulls_out_a_module_cable_and_the_board_names_it(mpy_dir):
    proc = subprocess.run([sys.executable, RUN, "--unplug", "3", "-c", "pass"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and "--unplug N needs --firmware" in proc.stderr, proc.stderr
    proc = subprocess.run([sys.executable, RUN, "--firmware", "--unplug", "3", "-c",
                           "import main", "--ticks", "20"], capture_output=True, text=True,
                          cwd=ROOT, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == (
        "Module 3 not answering: check its cable (the game waits)"), proc.stdout
