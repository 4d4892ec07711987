// A microSD card in SPI mode on the emulated Pico's hardware SPI, backed by
// an image file on the host (read only: the board never writes it).
//
// The card side of the SD Physical Layer spec's SPI mode, a byte per SPI
// transfer (rp2040js's SPI works in whole frames), chip select read from its
// GPIO: CS high ignores the bus (MISO reads 0xFF). Commands are 6 bytes
// (0x40 | index, 4 argument bytes, CRC7 << 1 | 1); CMD0 and CMD8 must carry
// a right CRC as on a real card (the rest are not checked: CRC is off in SPI
// mode until CMD59). The answer follows one 0xFF byte (NCR). Served:
//   CMD0 (idle), CMD8 (R7, echoes the check pattern), CMD9 (CSD v2.0),
//   CMD10 (CID), CMD12 (stop a CMD18), CMD13 (R2), CMD16 (block length:
//   512 only), CMD17 (one block), CMD18 (blocks until CMD12), CMD55 + ACMD41
//   (ready at the second ACMD41, as cards take a while), CMD58 (OCR: SDHC,
//   block addresses), CMD59 (CRC on/off); anything else is an illegal command.
// A read beyond the image answers R1 "address error". A data block is token
// 0xFE, 512 bytes and their CRC16, after one 0xFF byte (the card's access
// time NAC, kept short: the firmware polls it byte by byte). Each transfer
// takes 8 SPI clocks of emulated time. Without an image the slot is empty:
// nothing ever answers.

import fs from "node:fs";
import { GPIOPinState } from "rp2040js";

const FUNC_SPI = 1;
const BLOCK = 512;

function crc7(bytes) {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = ((crc << 1) ^ (crc & 0x80 ? 0x12 : 0)) & 0xff;
  }
  return crc | 1;
}

function crc16(buf) {
  let crc = 0;
  for (const b of buf) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = ((crc << 1) ^ (crc & 0x8000 ? 0x1021 : 0)) & 0xffff;
  }
  return crc;
}

export class SdCard {
  // cfg: {spi, sck, mosi, miso, cs, image (path or null)}; report(kind, text).
  constructor(chip, cfg, report, now) {
    this.chip = chip;
    this.cfg = cfg;
    this.report = report;
    this.now = now;
    this.fd = cfg.image ? fs.openSync(cfg.image, "r") : -1;
    this.blocks = this.fd >= 0 ? Math.floor(fs.fstatSync(this.fd).size / BLOCK) : 0;
    this.out = []; // bytes the card sends next
    this.cmd = new Uint8Array(6);
    this.got = 0; // command bytes so far
    this.idle = true;
    this.app = false; // the last command was CMD55
    this.ready = 0; // ACMD41s seen
    this.multi = -1; // CMD18: the next block to send, -1 none
    this.reads = 0; // blocks sent (for the bench)
    this.spi = chip.spi[cfg.spi];
    const spi = this.spi;
    let rx = 0xff;
    const alarm = chip.clock.createAlarm(() => spi.completeTransmit(rx));
    spi.onTransmit = (value) => {
      rx = this.transfer(value);
      const hz = spi.clockFrequency || 1e6;
      alarm.schedule(Math.round(8e9 / hz));
    };
    chip.gpio[cfg.cs].addListener(() => {
      if (this.selected()) return;
      this.got = 0; // CS high: a command cut short is dropped
    });
    this.checked = false;
  }

  selected() {
    return this.chip.gpio[this.cfg.cs].value === GPIOPinState.Low;
  }

  transfer(mosi) {
    if (!this.checked) {
      this.checked = true;
      const g = this.chip.gpio;
      for (const p of [this.cfg.sck, this.cfg.mosi, this.cfg.miso]) {
        if (g[p].functionSelect !== FUNC_SPI) {
          this.report("sdcard", "SPI" + this.cfg.spi + " transfer but GP" + p +
            " is not routed to SPI (function " + g[p].functionSelect + ")");
        }
      }
      if (this.spi.spiMode !== 0) this.report("sdcard", "SPI mode " + this.spi.spiMode + ": SD cards use mode 0");
    }
    if (this.fd < 0 || !this.selected()) return 0xff;
    if (this.got === 0 && (mosi & 0xc0) === 0x40) {
      this.cmd[0] = mosi;
      this.got = 1;
      return this.next();
    }
    if (this.got > 0) {
      this.cmd[this.got++] = mosi;
      if (this.got === 6) {
        this.got = 0;
        this.command();
      }
      return 0xff; // the host is still sending: the card listens
    }
    return this.next();
  }

  next() {
    if (this.out.length) return this.out.shift();
    if (this.multi >= 0) {
      this.block(this.multi++);
      return this.out.shift();
    }
    return 0xff;
  }

  r1() {
    return this.idle ? 1 : 0;
  }

  command() {
    const c = this.cmd;
    const index = c[0] & 0x3f;
    const arg = ((c[1] << 24) | (c[2] << 16) | (c[3] << 8) | c[4]) >>> 0;
    const app = this.app;
    this.app = false;
    if (index !== 12) this.out.length = 0;
    this.out.push(0xff); // NCR
    if ((index === 0 || index === 8) && crc7(c.subarray(0, 5)) !== c[5]) {
      this.out.push(this.r1() | 0x08); // CRC error
      return;
    }
    if (app && index === 41) {
      this.ready++;
      if (this.ready >= 2) this.idle = false;
      this.out.push(this.r1());
      return;
    }
    switch (index) {
      case 0:
        this.idle = true;
        this.ready = 0;
        this.multi = -1;
        this.out.push(1);
        return;
      case 8:
        this.out.push(this.r1(), 0, 0, arg >> 8 & 0x0f, arg & 0xff);
        return;
      case 55:
        this.app = true;
        this.out.push(this.r1());
        return;
      case 58: // OCR: powered up, CCS (block addresses), 3.2-3.4 V
        this.out.push(this.r1(), this.idle ? 0x40 : 0xc0, 0xff, 0x80, 0x00);
        return;
      case 59:
        this.out.push(this.r1());
        return;
    }
    if (this.idle) {
      this.out.push(this.r1() | 0x04); // not started yet: illegal here
      return;
    }
    switch (index) {
      case 9: { // CSD v2.0: C_SIZE = blocks / 1024 - 1
        const size = Math.max(1, Math.ceil(this.blocks / 1024)) - 1;
        const csd = new Uint8Array(16);
        csd[0] = 0x40; csd[1] = 0x0e; csd[3] = 0x32; csd[4] = 0x5b; csd[5] = 0x59;
        csd[7] = size >> 16 & 0x3f; csd[8] = size >> 8 & 0xff; csd[9] = size & 0xff;
        csd[10] = 0x7f; csd[11] = 0x80; csd[12] = 0x0a; csd[13] = 0x40; csd[15] = 1;
        this.out.push(0, 0xff, 0xfe, ...csd, ...this.crcBytes(csd));
        return;
      }
      case 10: {
        const cid = new Uint8Array(16);
        cid.set([0x41, 0x54, 0x41], 0); // "ATA": the emulator's own
        this.out.push(0, 0xff, 0xfe, ...cid, ...this.crcBytes(cid));
        return;
      }
      case 12:
        this.multi = -1;
        this.out.length = 0;
        this.out.push(0xff, 0, 0xff);
        return;
      case 13:
        this.out.push(0, 0);
        return;
      case 16:
        this.out.push(arg === BLOCK ? 0 : 0x40); // parameter error
        return;
      case 17:
      case 18:
        if (arg >= this.blocks) {
          this.out.push(0x20); // address error
          return;
        }
        this.out.push(0);
        this.block(arg);
        if (index === 18) this.multi = arg + 1;
        return;
    }
    this.out.push(0x04); // illegal command
  }

  crcBytes(buf) {
    const crc = crc16(buf);
    return [crc >> 8, crc & 0xff];
  }

  block(n) {
    if (n >= this.blocks) {
      this.out.push(0xff, 0x09); // data error token: out of range
      this.multi = -1;
      return;
    }
    const buf = Buffer.alloc(BLOCK);
    fs.readSync(this.fd, buf, 0, BLOCK, n * BLOCK);
    this.reads++;
    this.out.push(0xff, 0xfe, ...buf, ...this.crcBytes(buf));
  }
}
