// A microSD card in SPI mode on the emulated Pico's hardware SPI, backed by
// an image file on the host (read only: the board never writes it).
//
// The card side of the SD Physical Layer spec's SPI mode, a byte per SPI
// transfer (rp2040js's SPI works in whole frames), chip select read from its
// GPIO: CS high ignores the bus (MISO reads 0xFF). Commands are 6 bytes
// (0x40 | index, 4 argument bytes, CRC7 << 1 | 1); CMD0 and CMD8 must carry
// a right CRC as on a real card (the rest are not checked: CRC is off in SPI
// mode until CMD59). Served:
//   CMD0 (idle), CMD8 (R7, echoes the check pattern; a v1 card: illegal),
//   CMD9 (CSD v2.0), CMD10 (CID), CMD12 (stop a CMD18), CMD13 (R2), CMD16
//   (block length: 512 only), CMD17 (one block), CMD18 (blocks until CMD12),
//   CMD55 + ACMD41 (start up), CMD58 (OCR: CCS set on SDHC), CMD59 (CRC
//   on/off); anything else is an illegal command.
// The card (cfg.card): kind "sdhc" (the default: block addresses), "sdsc"
// (a v2 card of 2 GB or less: byte addresses, CCS clear) or "v1" (an old
// SDSC card: CMD8 is illegal, byte addresses); an SDHC card asked ACMD41
// without HCS (a v1 host) stays idle for ever, as real ones do. slow: true
// gives a real card's latencies: 0-8 bytes before each R1 (NCR), up to
// 100 ms before a block's data token (NAC), 1 s of "busy" ACMD41s from the
// first one; otherwise one byte before R1, one before the token, ready at
// the second ACMD41. A block once started is sent whole: the card hears no
// command until its CRC is out, so a board reset mid-block (the card keeps
// its power over a watchdog or soft reset: pico.mjs keeps this object)
// meets a card still sending. A read beyond the image answers R1 "address
// error". Each transfer takes 8 SPI clocks of emulated time. Without an
// image the slot is empty: nothing ever answers. MISO with the pad's
// pull-down and no pull-up is reported (the SD spec wants a pull-up).

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
  // cfg: {spi, sck, mosi, miso, cs, image (path or null), card: {kind, slow}};
  // report(kind, text); now(): emulated ns.
  constructor(chip, cfg, report, now) {
    this.cfg = cfg;
    this.report = report;
    this.now = now;
    const card = cfg.card || {};
    this.kind = card.kind || "sdhc";
    if (!["sdhc", "sdsc", "v1"].includes(this.kind)) throw new Error("sdcard kind " + this.kind);
    this.slow = !!card.slow;
    this.seed = 12345;
    this.fd = cfg.image ? fs.openSync(cfg.image, "r") : -1;
    this.blocks = this.fd >= 0 ? Math.floor(fs.fstatSync(this.fd).size / BLOCK) : 0;
    this.out = []; // bytes the card sends next (an R1 and what follows it)
    this.data = []; // a CMD17 block on its way (token, data, CRC): the card is deaf meanwhile
    this.tokenAt = 0; // emulated ns when the data token comes
    this.cmd = new Uint8Array(6);
    this.got = 0; // command bytes so far
    this.idle = true;
    this.app = false; // the last command was CMD55
    this.ready = 0; // ACMD41s seen
    this.since = -1; // ns of the first ACMD41
    this.multi = -1; // CMD18: the next block to send, -1 none
    this.reads = 0; // blocks sent (for the bench)
    this.attach(chip);
  }

  // A (new) chip on the slot: the card keeps its state over the board's reset.
  attach(chip) {
    this.chip = chip;
    this.spi = chip.spi[this.cfg.spi];
    const spi = this.spi;
    let rx = 0xff;
    const alarm = chip.clock.createAlarm(() => spi.completeTransmit(rx));
    spi.onTransmit = (value) => {
      rx = this.transfer(value);
      const hz = spi.clockFrequency || 1e6;
      alarm.schedule(Math.round(8e9 / hz));
    };
    chip.gpio[this.cfg.cs].addListener(() => {
      if (this.selected()) return;
      this.got = 0; // CS high: a command cut short is dropped
    });
    this.checked = false;
  }

  // A number in 0..n from the card's own sequence (the same every run).
  rand(n) {
    this.seed = (this.seed * 1103515245 + 12345) & 0x7fffffff;
    return (this.seed >> 8) % (n + 1);
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
      const miso = g[this.cfg.miso];
      if (!miso.pullupEnabled) {
        this.report("sdcard", "GP" + this.cfg.miso + " (MISO) has " +
          (miso.pulldownEnabled ? "the pad's pull-down" : "no pull") +
          ": an SD card's DO wants a pull-up");
      }
      if (this.spi.spiMode !== 0) this.report("sdcard", "SPI mode " + this.spi.spiMode + ": SD cards use mode 0");
    }
    if (this.fd < 0 || !this.selected()) return 0xff;
    if (this.data.length) { // a block on its way: whatever the host sends is not heard
      if (this.out.length) return this.out.shift();
      if (this.now() < this.tokenAt) return 0xff;
      return this.data.shift();
    }
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
      this.block(this.multi++, this.out);
      return this.out.shift();
    }
    return 0xff;
  }

  r1() {
    return this.idle ? 1 : 0;
  }

  // The answer's R1 after NCR bytes of 0xFF (0-8 on a slow card, else 1).
  reply(r1, ...rest) {
    const ncr = this.slow ? this.rand(8) : 1;
    for (let i = 0; i < ncr; i++) this.out.push(0xff);
    this.out.push(r1, ...rest);
  }

  command() {
    const c = this.cmd;
    const index = c[0] & 0x3f;
    const arg = ((c[1] << 24) | (c[2] << 16) | (c[3] << 8) | c[4]) >>> 0;
    const app = this.app;
    this.app = false;
    if (index !== 12) this.out.length = 0;
    if ((index === 0 || index === 8) && crc7(c.subarray(0, 5)) !== c[5]) {
      this.reply(this.r1() | 0x08); // CRC error
      return;
    }
    if (app && index === 41) {
      const now = this.now();
      if (this.since < 0) this.since = now;
      this.ready++;
      const hcs = arg & 0x40000000;
      const started = this.slow ? now - this.since >= 1e9 : this.ready >= 2;
      if (started && (hcs || this.kind !== "sdhc")) this.idle = false;
      this.reply(this.r1());
      return;
    }
    switch (index) {
      case 0:
        this.idle = true;
        this.ready = 0;
        this.since = -1;
        this.multi = -1;
        this.reply(1);
        return;
      case 8:
        if (this.kind === "v1") this.reply(this.r1() | 0x04); // illegal: a v1 card
        else this.reply(this.r1(), 0, 0, arg >> 8 & 0x0f, arg & 0xff);
        return;
      case 55:
        this.app = true;
        this.reply(this.r1());
        return;
      case 58: // OCR: powered up once started, CCS (block addresses) on SDHC, 3.2-3.4 V
        this.reply(this.r1(), (this.idle ? 0 : 0x80) | (this.kind === "sdhc" ? 0x40 : 0),
          0xff, 0x80, 0x00);
        return;
      case 59:
        this.reply(this.r1());
        return;
    }
    if (this.idle) {
      this.reply(this.r1() | 0x04); // not started yet: illegal here
      return;
    }
    switch (index) {
      case 9: { // CSD v2.0: C_SIZE = blocks / 1024 - 1
        const size = Math.max(1, Math.ceil(this.blocks / 1024)) - 1;
        const csd = new Uint8Array(16);
        csd[0] = 0x40; csd[1] = 0x0e; csd[3] = 0x32; csd[4] = 0x5b; csd[5] = 0x59;
        csd[7] = size >> 16 & 0x3f; csd[8] = size >> 8 & 0xff; csd[9] = size & 0xff;
        csd[10] = 0x7f; csd[11] = 0x80; csd[12] = 0x0a; csd[13] = 0x40; csd[15] = 1;
        this.reply(0, 0xff, 0xfe, ...csd, ...this.crcBytes(csd));
        return;
      }
      case 10: {
        const cid = new Uint8Array(16);
        cid.set([0x41, 0x54, 0x41], 0); // "ATA": the emulator's own
        this.reply(0, 0xff, 0xfe, ...cid, ...this.crcBytes(cid));
        return;
      }
      case 12:
        this.multi = -1;
        this.out.length = 0;
        this.out.push(0xff, 0, 0xff);
        return;
      case 13:
        this.reply(0, 0);
        return;
      case 16:
        this.reply(arg === BLOCK ? 0 : 0x40); // parameter error
        return;
      case 17:
      case 18: {
        let n = arg;
        if (this.kind !== "sdhc") { // byte addresses
          if (arg % BLOCK) {
            this.reply(0x20); // address error: not on a block
            return;
          }
          n = arg / BLOCK;
        }
        if (n >= this.blocks) {
          this.reply(0x20); // address error
          return;
        }
        this.reply(0);
        if (index === 18) {
          this.block(n, this.out);
          this.multi = n + 1;
          return;
        }
        const nac = !this.slow ? 0 : this.reads % 8 === 0 ? 60 + this.rand(40) : this.rand(1);
        this.tokenAt = this.now() + nac * 1e6;
        this.block(n, this.data);
        return;
      }
    }
    this.reply(0x04); // illegal command
  }

  crcBytes(buf) {
    const crc = crc16(buf);
    return [crc >> 8, crc & 0xff];
  }

  block(n, into) {
    if (n >= this.blocks) {
      into.push(0xff, 0x09); // data error token: out of range
      this.multi = -1;
      return;
    }
    const buf = Buffer.alloc(BLOCK);
    fs.readSync(this.fd, buf, 0, BLOCK, n * BLOCK);
    this.reads++;
    into.push(0xff, 0xfe, ...buf, ...this.crcBytes(buf));
  }
}
