// The RP2040's XIP cache, for charging flash reads what they cost on silicon.
//
// rp2040js answers every read of the flash (XIP, 0x10000000-0x13ffffff) in
// one cycle, as if the whole program sat in the cache. The RP2040 datasheet
// (2.6.3.1 XIP cache): 16 kB, two-way set-associative, 1-cycle hit, 8-byte
// lines (1024 sets x 2 ways x 8 bytes); the mirrors 0x10 (cached,
// allocating), 0x11 (checked, not allocating), 0x12 (not checked,
// allocating) and 0x13 (not cached). A miss reads the line from the QSPI
// flash through the SSI: the Pico's boot2 (pico-sdk boot2_w25q080, which
// MicroPython's and CircuitPython's RP2040 builds use in this form) runs it
// in quad continuous-read mode at clk_sys / PICO_FLASH_SPI_CLKDIV (2 on the
// Pico: 62.5 MHz), so a line costs 6 SCK of address, 2 of mode bits, 4 dummy
// and 16 of data (8 bytes on 4 lines): 28 SCK, 56 system cycles, plus the
// SSI's and the bus bridge's own (chip select, FIFO, AHB; about 10 cycles:
// an uncached 32-bit load measures about 400 ns at 125 MHz, 20 SCK + 10).
// The replacement policy is taken as LRU (the datasheet does not say).

export const LINE = 8;
export const SETS = 1024;
export const SCK_PER_LINE = 6 + 2 + 4 + 16;
export const SCK_PER_WORD = 6 + 2 + 4 + 8; // an uncached (0x13) access
export const CLKDIV = 2;
export const OVERHEAD = 10;
export const MISS_CYCLES = SCK_PER_LINE * CLKDIV + OVERHEAD; // 66
export const UNCACHED_CYCLES = SCK_PER_WORD * CLKDIV + OVERHEAD; // 50

export class XipCache {
  constructor(missCycles = MISS_CYCLES, uncachedCycles = UNCACHED_CYCLES) {
    this.missCycles = missCycles;
    this.uncachedCycles = uncachedCycles;
    this.tags = new Int32Array(2 * SETS);
    this.older = new Uint8Array(SETS); // the way a miss in this set replaces
    this.flush();
    this.hits = 0;
    this.misses = 0;
    this.stall = 0; // cycles owed, taken by the caller after each instruction
  }

  // The whole cache invalid (a reset, or the flash written: the SDK flushes it).
  flush() {
    this.tags.fill(-1);
    this.older.fill(0);
  }

  // One read at system address `address` (0x10000000-0x13ffffff).
  read(address) {
    const mirror = (address >>> 24) & 3;
    const line = (address & 0xffffff) >>> 3;
    const set = line & (SETS - 1);
    const tag = line >>> 10;
    const at = set << 1;
    if (mirror === 3) {
      this.misses++;
      this.stall += this.uncachedCycles;
      return;
    }
    if (mirror !== 2) {
      if (this.tags[at] === tag) {
        this.older[set] = 1;
        this.hits++;
        return;
      }
      if (this.tags[at + 1] === tag) {
        this.older[set] = 0;
        this.hits++;
        return;
      }
    }
    this.misses++;
    this.stall += this.missCycles;
    if (mirror === 1) return; // checked, not allocated
    let way = this.older[set];
    if (mirror === 2) {
      // Not checked, but a line already held must not be held twice.
      if (this.tags[at] === tag) way = 0;
      else if (this.tags[at + 1] === tag) way = 1;
    }
    this.tags[at + way] = tag;
    this.older[set] = way ^ 1;
  }

  // Charge the core's reads of the flash: wraps its read functions (instruction
  // fetches and loads alike go through them).
  attach(core) {
    const cache = this;
    for (const name of ["readUint8", "readUint16", "readUint32"]) {
      const read = core[name].bind(core);
      core[name] = (address) => {
        if (address >>> 26 === 4) cache.read(address); // 0x10000000-0x13ffffff
        return read(address);
      };
    }
  }

  // The stall cycles since the last call.
  take() {
    const n = this.stall;
    this.stall = 0;
    return n;
  }
}
