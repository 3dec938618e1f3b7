import { EventEmitter } from 'node:events';
import { SerialPort } from 'serialport';
import type { TransportClose } from '../transport/line-transport.ts';
import { pathTarget, PortPathWatch } from '../transport/port-path.ts';
import type { ModbusBusSettings } from './modbus-bus-settings.ts';

/** The longest RTU frame (the protocol's limit). */
const MAX_FRAME = 256;
const EXCEPTION_LENGTH = 5;

interface AwaitedReply {
  unit: number;
  functionCode: number;
  length: number;
}

/**
 * The serial port under a modbus-serial client: it writes request frames and emits exactly one
 * `data` event per reply frame, cut by the length the request implies (or an exception's five
 * bytes). Bytes left from an earlier, abandoned reply are dropped when the next request is written,
 * so a late answer is never taken for the next one. Like the line transport it watches its path: a
 * pseudo-terminal whose other end went away, or a USB adapter that vanished, counts as unplugged.
 * Emits `close` once with a `TransportClose`. Owned by the bus that opened it.
 */
export class ModbusRtuPort extends EventEmitter {
  // modbus-serial keeps its transaction bookkeeping on the port object.
  _transactionIdRead = 1;
  _transactionIdWrite = 1;
  private readonly serial: SerialPort;
  private buffer = Buffer.alloc(0);
  private awaited: AwaitedReply | undefined;
  /**
   * Why the last reply frame cannot be trusted although it has the awaited length (a read whose byte
   * count says another length: modbus-serial would read past the frame, or return too few values);
   * cleared by the next request.
   */
  replyProblem: string | undefined;
  private closedOnce = false;
  private pathLost = false;
  private watch: PortPathWatch | undefined;
  private opening = false;
  private closeWhenOpened: (() => void)[] | undefined;

  constructor(private readonly options: { path: string; settings: ModbusBusSettings; watchPathMs: number }) {
    super();
    this.serial = new SerialPort({
      path: options.path,
      baudRate: options.settings.baud,
      parity: options.settings.parity,
      stopBits: options.settings.stopbits,
      dataBits: 8,
      autoOpen: false,
    });
    this.serial.on('data', (data: Buffer) => this.receive(data));
    this.serial.on('close', (error?: Error & { disconnected?: boolean }) => {
      this.watch?.stop();
      if (this.closedOnce) return;
      this.closedOnce = true;
      const reason: TransportClose = {
        disconnected: error?.disconnected === true || this.pathLost,
        ...(error?.message || this.pathLost ? { detail: error?.message ?? `${options.path} vanished` } : {}),
      };
      this.emit('close', reason);
    });
    // After open, serialport reports read and write failures as 'error': a port that errors is gone.
    this.serial.on('error', (error: Error) => {
      if (this.closedOnce) return;
      if (this.serial.isOpen) this.serial.close();
      else {
        this.closedOnce = true;
        this.emit('close', { disconnected: true, detail: error.message } satisfies TransportClose);
      }
    });
  }

  get isOpen(): boolean {
    return !this.closedOnce && this.serial.isOpen;
  }

  /** Called by modbus-serial's `open`. */
  open(callback: (error: Error | null) => void): void {
    this.opening = true;
    this.serial.open((error) => {
      if (error) {
        this.opened();
        return callback(error);
      }
      void pathTarget(this.options.path).then((openedTarget) => {
        if (this.opened()) return callback(new Error(`${this.options.path} was closed while it was opening`));
        this.watch = new PortPathWatch({
          path: this.options.path,
          openedTarget,
          everyMs: this.options.watchPathMs,
          stillOpen: () => !this.closedOnce && this.serial.isOpen,
          onLost: () => {
            this.pathLost = true;
            this.serial.close();
          },
        });
        callback(null);
      });
    });
  }

  /** The open finished: closes the port now if a close was asked meanwhile (true then). */
  private opened(): boolean {
    this.opening = false;
    const waiters = this.closeWhenOpened;
    if (waiters === undefined) return false;
    this.closeWhenOpened = undefined;
    this.close(() => {
      for (const waiter of waiters) waiter();
    });
    return true;
  }

  /** Called by modbus-serial with one complete request frame (CRC included). */
  write(frame: Buffer): void {
    this.awaited = awaitedReply(frame);
    this.buffer = Buffer.alloc(0);
    this.replyProblem = undefined;
    this.serial.write(frame);
  }

  close(callback?: () => void): void {
    this.watch?.stop();
    // Closing a port that is still opening would find it not open and leave it open for good once
    // the open completes (holding its lock, so the bus could never open the path again).
    if (this.opening) {
      (this.closeWhenOpened ??= []).push(() => callback?.());
      return;
    }
    if (!this.serial.isOpen) {
      callback?.();
      return;
    }
    this.serial.close(() => callback?.());
  }

  private receive(data: Buffer): void {
    const awaited = this.awaited;
    // Nothing asked: a late or unsolicited reply. It is dropped here, and the next write starts clean.
    if (awaited === undefined) return;
    this.buffer = Buffer.concat([this.buffer, data]).subarray(-MAX_FRAME);
    for (let start = 0; start + 1 < this.buffer.length; start += 1) {
      if (this.buffer[start] !== awaited.unit) continue;
      const functionCode = this.buffer[start + 1];
      const length =
        functionCode === awaited.functionCode
          ? awaited.length
          : functionCode === (awaited.functionCode | 0x80)
            ? EXCEPTION_LENGTH
            : undefined;
      if (length === undefined) continue;
      if (start + length > this.buffer.length) return;
      const frame = this.buffer.subarray(start, start + length);
      this.awaited = undefined;
      this.buffer = Buffer.alloc(0);
      // A read's third byte counts the data bytes that follow: it must agree with the length cut.
      if (functionCode === awaited.functionCode && functionCode <= 4 && frame[2] !== length - 5)
        this.replyProblem = `its byte count says ${frame[2]} bytes where ${length - 5} were asked`;
      this.emit('data', frame);
      return;
    }
  }
}

/** The reply a request frame asks for: same unit and function, and its length (functions 1–6, 15, 16). */
function awaitedReply(frame: Buffer): AwaitedReply | undefined {
  if (frame.length < 6) return undefined;
  const unit = frame[0]!;
  const functionCode = frame[1]!;
  const quantity = frame.readUInt16BE(4);
  switch (functionCode) {
    case 1:
    case 2:
      return { unit, functionCode, length: 3 + Math.ceil(quantity / 8) + 2 };
    case 3:
    case 4:
      return { unit, functionCode, length: 3 + 2 * quantity + 2 };
    case 5:
    case 6:
    case 15:
    case 16:
      return { unit, functionCode, length: 8 };
    default:
      return undefined;
  }
}
