"""tools/mpytest.py reports passes, failures (name + traceback) and skips right.

Runs the real runner on a small temporary test directory, under the unix
port and under the WebAssembly port.
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPYTEST = os.path.join(ROOT, "tools", "mpytest.py")
WASM_PKG = os.path.join(
    ROOT, "tools", "wasm", "node_modules", "@micropython", "micropython-webassembly-pyscript"
)

GOOD = '''
import check
from attila.errors import NotationError

def _bad():
    raise NotationError("row 1, column 2: bad")

def test_one():
    assert check.raises(NotationError, _bad) == "row 1, column 2: bad"

def test_two():
    assert sum([1, 2, 3]) == 6
'''

BAD = '''
def test_passes():
    pass

def test_wrong_sum():
    total = 1 + 1
    assert total == 3, ("total is", total)
'''

ONLY_UNIX = '''
PORTS = ("unix",)

def test_unix_only():
    pass
'''

SKIPS = '''
import check

def test_applies():
    pass

def test_not_here():
    check.skip("no heap to measure here")
    assert False, "a skipped test runs on"
'''

HUGE = '''
def test_too_big():
    blob = bytearray(4 * 1024 * 1024)
    assert len(blob)
'''


def _run(port, test_dir, *extra):
    proc = subprocess.run(
        [sys.executable, MPYTEST, port, "--dir", str(test_dir)] + list(extra),
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _write(test_dir, **files):
    for name, text in files.items():
        (test_dir / (name + ".py")).write_text(text)


PORTS = ["unix"]
if shutil.which("node") and os.path.isdir(WASM_PKG):
    PORTS.append("wasm")


@pytest.mark.parametrize("port", PORTS)
def test_reports_failure_with_name_and_traceback(port, tmp_path):
    _write(tmp_path, test_good=GOOD, test_bad=BAD, test_only_unix=ONLY_UNIX, test_skips=SKIPS)
    rc, out, err = _run(port, tmp_path)
    assert rc == 1, out + err
    lines = out.splitlines()
    assert "test_good.py: 2 passed" in lines, out
    assert "test_bad.py: 1 passed, 1 failed" in lines, out
    assert "  FAIL test_bad.py::test_wrong_sum" in lines, out
    assert "AssertionError: ('total is', 2)" in out, out
    assert 'test_bad.py", line 7, in test_wrong_sum' in out, out
    assert "assert total == 3" in out, out  # the source line is shown
    # A test that does not apply is counted as skipped, with its reason, never passed.
    assert "test_skips.py: 1 passed, 1 skipped" in lines, out
    assert "  SKIP test_skips.py::test_not_here: no heap to measure here" in lines, out
    assert "a skipped test runs on" not in out, out
    if port == "unix":
        assert "test_only_unix.py: 1 passed" in lines, out
        assert lines[-1] == "micropython-unix: 5 passed, 1 skipped, 1 failed", out
    else:
        assert "test_only_unix.py: 1 skipped (PORTS = ('unix',))" in lines, out
        assert lines[-1] == "micropython-wasm: 4 passed, 2 skipped, 1 failed", out


@pytest.mark.parametrize("port", PORTS)
def test_all_pass_exits_zero(port, tmp_path):
    _write(tmp_path, test_good=GOOD)
    rc, out, err = _run(port, tmp_path)
    assert rc == 0, out + err
    assert out.splitlines()[-1] == "micropython-%s: 2 passed, 0 skipped, 0 failed" % port, out


def test_import_error_is_a_failure(tmp_path):
    _write(tmp_path, test_broken="import no_such_module_here\n")
    rc, out, err = _run("unix", tmp_path)
    assert rc == 1, out + err
    assert "  FAIL test_broken.py::<import>" in out, out
    assert "no_such_module_here" in out, out


def test_heap_limit_is_real(tmp_path):
    _write(tmp_path, test_huge=HUGE)
    rc, out, err = _run("unix", tmp_path, "--heapsize", "128K")
    assert rc == 1, out + err
    assert "MemoryError" in out, out


def test_no_tests_is_a_failure(tmp_path):
    rc, out, err = _run("unix", tmp_path)
    assert rc == 1, out + err
    assert out.splitlines()[-1] == "micropython-unix: 0 passed, 0 skipped, 0 failed", out


def test_unknown_file_is_a_usage_error(tmp_path):
    _write(tmp_path, test_good=GOOD)
    rc, out, err = _run("unix", tmp_path, "test_missing.py")
    assert rc == 2
    assert "no such test file: test_missing" in err, err


def test_only_skips_is_a_failure(tmp_path):
    # Nothing proven: a run where every test was skipped does not pass.
    _write(tmp_path, test_skips=SKIPS.replace("def test_applies():\n    pass\n", ""))
    rc, out, err = _run("unix", tmp_path)
    assert rc == 1, out + err
    assert out.splitlines()[-1] == "micropython-unix: 0 passed, 1 skipped, 0 failed", out


def test_check_skip_is_a_pytest_skip_on_cpython():
    import sys

    sys.path.insert(0, os.path.join(ROOT, "tests", "portable"))
    try:
        import check
    finally:
        sys.path.pop(0)
    with pytest.raises(pytest.skip.Exception, match="not here"):
        check.skip("not here")
