// The Pico's flash chip, served on the host.
//
// rp2040js ignores the flash chip's commands, so the bootrom's
// flash_range_erase and flash_range_program start with a BKPT here
// (patchBootrom), served on the host (erase fills with 0xff, program ANDs
// the bytes in) and timed as a W25Q16JV does it (typical figures: 45 ms a
// 4 KB sector, 150 ms a 64 KB block, 0.4 ms a 256-byte page; with
// --flash-times max the data sheet's maxima: 400 ms, 2 s, 3 ms). Every
// erase and program is written back to the flash file at once, so a reboot,
// a power cut or a new run starts on the same flash. A power cut inside an
// operation does its first part only (the `fraction` arguments).

import fs from "node:fs";

export const FLASH_SIZE = 2 * 1024 * 1024;
export const BK_ERASE = 0x31;
export const BK_PROGRAM = 0x32;
export const SECTOR = 4096;
export const PAGE = 256;
// W25Q16JV times (ns), data sheet rev. H, table 9.7: tSE, tBE2 (64 KB), tPP.
export const FLASH_TIMES = {
  typical: { sector: 45e6, block: 150e6, page: 0.4e6 },
  max: { sector: 400e6, block: 2000e6, page: 3e6 },
};

// The bootrom (16 KB) with BKPTs at the start of the two flash writers, as
// the Uint32Array rp2040js loads; null if its function table lacks them.
// The table: a 16-bit pointer at 0x14; entries of a 2-letter code and a
// 16-bit address.
export function patchBootrom(romBytes) {
  const rom = Buffer.from(romBytes);
  const table = rom.readUInt16LE(0x14);
  const patches = { RE: BK_ERASE, RP: BK_PROGRAM };
  let found = 0;
  for (let at = table; ; at += 4) {
    const code = rom.readUInt16LE(at);
    if (!code) break;
    const name = String.fromCharCode(code & 0xff, code >> 8);
    if (patches[name] !== undefined) {
      rom.writeUInt16LE(0xbe00 | patches[name], rom.readUInt16LE(at + 2) & ~1);
      found++;
    }
  }
  if (found !== 2) return null;
  return new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4);
}

export class HostFlash {
  // fd: the flash file, open for writing; bytes: its FLASH_SIZE bytes;
  // times: one of FLASH_TIMES.
  constructor(fd, bytes, times) {
    this.fd = fd;
    this.bytes = bytes;
    this.sectorErase = times.sector;
    this.blockErase = times.block;
    this.pageProgram = times.page;
  }

  persist(offset, length) {
    fs.writeSync(this.fd, this.bytes, offset, length, offset);
  }

  close() {
    fs.closeSync(this.fd);
  }

  // The erase steps the bootrom takes: 64 KB blocks where aligned, else sectors.
  eraseSteps(addr, count, blockSize, blockCmd) {
    const steps = [];
    for (let a = addr; a < addr + count;) {
      const block = blockCmd && blockSize && a % blockSize === 0 && addr + count - a >= blockSize;
      const size = block ? blockSize : SECTOR;
      steps.push([a, size, block ? this.blockErase : this.sectorErase]);
      a += size;
    }
    return steps;
  }

  eraseTime(addr, count, blockSize, blockCmd) {
    let t = 0;
    for (const step of this.eraseSteps(addr, count, blockSize, blockCmd)) t += step[2];
    return t;
  }

  programTime(addr, count) {
    return Math.ceil(((addr % PAGE) + count) / PAGE) * this.pageProgram;
  }

  // Erase, or its first `fraction` (a power cut inside it: the sector being
  // erased is left part erased).
  erase(addr, count, blockSize, blockCmd, fraction) {
    let budget = fraction * this.eraseTime(addr, count, blockSize, blockCmd);
    for (const [a, size, dt] of this.eraseSteps(addr, count, blockSize, blockCmd)) {
      const n = budget >= dt ? size : Math.floor((size * budget) / dt);
      this.bytes.fill(0xff, a, a + n);
      this.persist(a, size);
      budget -= dt;
      if (budget <= 0) break;
    }
  }

  // Program (AND the bytes in), or its first `fraction`.
  program(addr, data, fraction) {
    const n = Math.floor(data.length * fraction);
    for (let i = 0; i < n; i++) this.bytes[addr + i] &= data[i];
    this.persist(addr, data.length);
  }
}
