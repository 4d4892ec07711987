"""The XIP cache model of the emulated Pico (tools/pico/xip.mjs), on access patterns
whose hits and misses follow from the RP2040's cache: 16 kB, two ways, 8-byte lines."""

import json
import os
import shutil
import subprocess

import pytest

XIP = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "tools", "pico", "xip.mjs")

# Each pattern: a list of (start, count, stride) runs of 32-bit reads, read in turn.
SCRIPT = """
import { XipCache, MISS_CYCLES, UNCACHED_CYCLES } from %s;
const patterns = JSON.parse(process.argv[1]);
const out = {miss: MISS_CYCLES, uncached: UNCACHED_CYCLES};
for (const [name, runs] of Object.entries(patterns)) {
  const c = new XipCache();
  for (const [start, count, stride] of runs)
    for (let i = 0; i < count; i++) c.read(start + i * stride);
  out[name] = [c.hits, c.misses, c.take()];
}
console.log(JSON.stringify(out));
"""

BASE = 0x10000000
KB = 1024


def run(patterns):
    if not shutil.which("node"):
        pytest.skip("node is not installed")
    proc = subprocess.run(["node", "--input-type=module", "-e", SCRIPT % json.dumps(XIP),
                           json.dumps(patterns)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_cache_keeps_16_kb_in_two_ways_of_8_byte_lines():
    got = run({
        # 8 kB read twice, a word at a time: a miss per line the first time only.
        "8k twice": [[BASE, 2 * KB, 4], [BASE, 2 * KB, 4]],
        # The whole 16 kB twice: it all fits (both ways of every set).
        "16k twice": [[BASE, 4 * KB, 4], [BASE, 4 * KB, 4]],
        # 24 kB twice: more than the cache, read in order, LRU keeps the wrong
        # lines: every line misses both times.
        "24k twice": [[BASE, 6 * KB, 4], [BASE, 6 * KB, 4]],
        # Three lines 8 kB apart share a set: two ways hold two of them, so
        # taking them in turn misses every time; two in turn hit after the first.
        "3 in a set": [[BASE, 3, 8 * KB]] * 10,
        "2 in a set": [[BASE, 2, 8 * KB]] * 10,
        # The same line through the mirrors: 0x11 checks without allocating,
        # 0x13 is never cached, 0x10 then misses once and hits after.
        "mirrors": [[BASE + 0x1000000, 2, 0], [BASE + 0x3000000, 2, 0], [BASE, 3, 0]],
    })
    miss, uncached = got["miss"], got["uncached"]
    # A line read at clk_sys / 2 in quad continuous mode: 28 SCK and the SSI's own.
    assert (miss, uncached) == (66, 50)
    lines = 8 * KB // 8
    assert got["8k twice"] == [4 * KB - lines, lines, lines * miss]
    assert got["16k twice"] == [8 * KB - 2 * lines, 2 * lines, 2 * lines * miss]
    assert got["24k twice"] == [12 * KB - 6 * lines, 6 * lines, 6 * lines * miss]
    assert got["3 in a set"] == [0, 30, 30 * miss]
    assert got["2 in a set"] == [18, 2, 2 * miss]
    assert got["mirrors"] == [2, 5, 3 * miss + 2 * uncached]
