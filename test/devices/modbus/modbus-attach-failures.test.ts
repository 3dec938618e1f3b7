import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../core/tools/tool-error.ts';
import { ModbusBus } from '../../../devices/modbus/modbus-bus.ts';
import { modbusFailure } from '../../../devices/modbus/modbus-failure.ts';
import { ModbusUnitLink } from '../../../devices/modbus/modbus-unit-link.ts';
import type { FrameProblem } from '../../../devices/links/session-types.ts';
import { findExecutable } from '../../../host/devices/find-executable.ts';
import { startHostileModbusPeer, withCrc } from '../../helpers/hostile-modbus-peer.ts';
import { describeWithPymodbus, shippedProfile } from '../../helpers/modbus-rig.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { startPymodbus } from '../../helpers/start-pymodbus.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

const SETTINGS = { baud: 9600, parity: 'none', stopbits: 1 } as const;

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return ToolError.isInstance(error) ? error.toData() : `not a ToolError: ${String(error)}`;
  }
}

/**
 * An SDM120 unit on `path`, started, with the first frame problem and the first failed identity read
 * it reports: the test waits for those events, then asks whether it is online (so nothing depends on
 * how fast the peer answers).
 */
function meterUnit(path: string): {
  link: ModbusUnitLink;
  firstFrameProblem: Promise<FrameProblem>;
  firstFailedRead: Promise<FrameProblem>;
} {
  const bus = new ModbusBus({ path, settings: SETTINGS });
  const link = new ModbusUnitLink({ bus, unit: 1, profile: shippedProfile('eastron-sdm120'), probeIntervalMs: 50 });
  owned.add({ close: () => link.dispose() });
  const first = (kind: FrameProblem['problem']) =>
    new Promise<FrameProblem>((resolve) => {
      const stop = link.onProblem((problem) => {
        if (problem.problem !== kind) return;
        stop();
        resolve(problem);
      });
    });
  const firstFrameProblem = first('invalid_frame');
  const firstFailedRead = first('connection');
  link.start();
  return { link, firstFrameProblem, firstFailedRead };
}

// The SDM120's first identity read (devices/modbus/profiles): input registers 0–1, the voltage.
const FIRST_READ = 'read input registers 0–1';

describeWithPymodbus('a Modbus unit that answers its identity read with an exception (pymodbus)', () => {
  it('says, when the wait for it ends, which exception it answered and what that means, not only that it was not online', async () => {
    // Unit 1 has no registers at all: pymodbus answers every read with exception 2.
    const peer = owned.add(await startPymodbus({ buses: [{ baudrate: 9600, units: { 1: {} } }] }));
    const path = peer.paths[0]!;
    const { link, firstFailedRead } = meterUnit(path);
    await firstFailedRead;
    expect(await failureOf(link.whenOnline({ timeoutMs: 1 }))).toEqual({
      reason: 'device_offline',
      detail: `unit 1 on ${path}: not online within 1 ms (last: unit 1 on ${path}: reading its identity failed: unit 1 on ${path} answered ${FIRST_READ} with exception 2 (illegal data address))`,
    });
  });
});

describe.skipIf(findExecutable('socat') === undefined)('a hostile Modbus peer (needs socat)', () => {
  it('names a CRC error when a unit’s identity reply is damaged', async () => {
    // A well-formed reply for 2 registers whose CRC's last byte is flipped.
    const peer = owned.add(
      await startHostileModbusPeer((request) => {
        const reply = withCrc([request[0]!, request[1]!, 4, 0x43, 0x65, 0xcc, 0xcd]);
        reply.writeUInt8(reply.readUInt8(reply.length - 1) ^ 0xff, reply.length - 1);
        return reply;
      }),
    );
    const { link, firstFrameProblem, firstFailedRead } = meterUnit(peer.path);
    expect(await firstFrameProblem).toEqual({ problem: 'invalid_frame', detail: `unit 1 on ${peer.path}: CRC error` });
    await firstFailedRead;
    expect(await failureOf(link.whenOnline({ timeoutMs: 1 }))).toMatchObject({
      reason: 'device_offline',
      detail: expect.stringContaining(
        `(last: unit 1 on ${peer.path}: reading its identity failed: unit 1 on ${peer.path} sent a damaged reply to ${FIRST_READ} (CRC error))`,
      ),
    });
  });

  it('answers a reply whose byte count lies, larger or smaller, with a typed failure counted as a frame problem, never a RangeError', async () => {
    // 01 04 N 43 65 CC CD + CRC: two registers' worth of data, whatever byte count N says.
    let byteCount = 200;
    const peer = owned.add(
      await startHostileModbusPeer((request) => withCrc([request[0]!, request[1]!, byteCount, 0x43, 0x65, 0xcc, 0xcd])),
    );
    const bus = new ModbusBus({ path: peer.path, settings: SETTINGS });
    const release = bus.use();
    owned.add({ close: release });
    await bus.whenState((state) => state === 'open', AbortSignal.timeout(10_000));
    const problems: string[] = [];
    const read = () =>
      failureOf(
        bus.transaction({
          unit: 1,
          request: { kind: 'read', table: 'input', address: 0, count: 2 },
          timeoutMs: 5000,
          onFrameProblem: (detail) => problems.push(detail),
        }),
      );
    const damaged = (says: number) => ({
      reason: 'failed',
      detail: `unit 1 on ${peer.path} sent a damaged reply to ${FIRST_READ} (its byte count says ${says} bytes where 4 were asked)`,
      hint: 'noise on the bus or a second master: check wiring, termination and bus settings',
    });
    expect(await read()).toEqual(damaged(200));
    byteCount = 2;
    expect(await read()).toEqual(damaged(2));
    expect(problems).toEqual([
      `unit 1 on ${peer.path}: its byte count says 200 bytes where 4 were asked`,
      `unit 1 on ${peer.path}: its byte count says 2 bytes where 4 were asked`,
    ]);
    // The true count still reads: 0x4365CCCD as two registers.
    byteCount = 4;
    await expect(
      bus.transaction({ unit: 1, request: { kind: 'read', table: 'input', address: 0, count: 2 }, timeoutMs: 5000 }),
    ).resolves.toEqual([0x4365, 0xcccd]);
  });
});

describe('modbusFailure', () => {
  it('types whatever modbus-serial throws while decoding a reply as a damaged reply, counted as a frame problem', () => {
    let thrown: unknown;
    try {
      // What the library's decoder meets when a byte count points past the frame.
      Buffer.alloc(9).readUInt16BE(9);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RangeError);
    const failure = modbusFailure(thrown, {
      who: 'unit 1 on /dev/ttyUSB0',
      what: FIRST_READ,
      timeoutMs: 1000,
      changes: false,
    });
    expect(failure.error.toData()).toEqual({
      reason: 'failed',
      detail: `unit 1 on /dev/ttyUSB0 sent a damaged reply to ${FIRST_READ} (the reply could not be read: ${(thrown as Error).message})`,
      hint: 'noise on the bus or a second master: check wiring, termination and bus settings',
    });
    expect(failure.frameProblem).toBe(`the reply could not be read: ${(thrown as Error).message}`);
  });
});
