// The host side of the emulated Pico's USB CDC serial port.
//
// The device's OUT endpoint waits until the host has bytes (a real host
// NAKs), so an idle REPL costs the chip nothing. MicroPython prints its
// banner only once the host has sent something (the emulator sends no USB
// start-of-frame), so a connection sends a newline unless the host has
// spoken already.

import { USBCDC } from "rp2040js";

const EP0_IN_BUFFER_CONTROL = 0x80; // USB DPRAM: endpoint n's IN buffer control at 0x80 + 8 n
const BUF_AVAILABLE = (1 << 10) | (1 << 26); // buffer 0 or 1 handed to the controller

export class HostSerial {
  // usb: the chip's USB controller; hostSpoke(): whether the host has
  // written to the port this boot; onData(bytes): the device sent bytes.
  constructor(usb, hostSpoke, onData) {
    this.usb = usb;
    this.queue = [];
    this.wanted = 0;
    this.cdc = new USBCDC(usb);
    // MicroPython shows its prompt once the host has sent something: a
    // newline, unless the host has spoken already (its bytes come first).
    this.cdc.onDeviceConnected = () => {
      if (!hostSpoke()) this.write(Buffer.from("\r\n"));
    };
    this.cdc.onSerialData = onData;
    // A deaf host (it holds the port open, DTR set, and reads nothing): the
    // device's IN transfers on the data endpoint are not taken (a real host
    // NAKs them) until it reads again; the device's FIFO fills up.
    this.deaf = false;
    this.held = [];
    const dpramUpdated = usb.DPRAMUpdated.bind(usb);
    this.dpramUpdated = dpramUpdated;
    usb.DPRAMUpdated = (offset, value) => {
      const inControl = EP0_IN_BUFFER_CONTROL + this.cdc.inEndpoint * 8;
      if (this.deaf && this.cdc.inEndpoint > 0 && offset === inControl && value & BUF_AVAILABLE) {
        this.held.push([offset, value]);
        return;
      }
      dpramUpdated(offset, value);
    };
    // Replace rp2040js's reader: answer the device's OUT request only when
    // the host has something to send.
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.cdc.outEndpoint) return;
      this.wanted = size;
      this.pump();
    };
  }

  setDeaf(on) {
    this.deaf = on;
    if (on) return;
    const held = this.held;
    this.held = [];
    for (const [offset, value] of held) this.dpramUpdated(offset, value);
  }

  write(bytes) {
    for (const b of bytes) this.queue.push(b);
    this.pump();
  }

  pump() {
    if (!this.wanted || !this.queue.length) return;
    const n = Math.min(this.wanted, this.queue.length, 64);
    const packet = Uint8Array.from(this.queue.splice(0, n));
    this.wanted = 0;
    this.usb.endpointReadDone(this.cdc.outEndpoint, packet);
  }
}
