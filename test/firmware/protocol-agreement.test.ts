import { afterEach, expect, it } from 'vitest';
import { helloResultSchema } from '../../devices/protocol/frame-schema.ts';
import type { ResponseFrame } from '../../devices/protocol/frame-schema.ts';
import { startSimulatedDevices } from '../../devices/simulator/start-simulated-devices.ts';
import { describeBoards } from '../helpers/avr/boards-describe.ts';
import { buildExample } from '../helpers/avr/build-sketch.ts';
import { openRawLineClient, type RawLineClient } from '../helpers/avr/raw-line-client.ts';
import { startSimavrBoard, openListeningBoard } from '../helpers/avr/simavr-board.ts';
import { Disposables } from '../helpers/pty-pair.ts';
import { PROTOCOL_CASES, type Expected } from './protocol-cases.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

type Outcome = Expected | { hello: number; kind: string; tools: unknown; concurrent: boolean };

function outcomeOf(response: ResponseFrame): Outcome {
  if (!response.ok)
    return {
      ok: false,
      id: response.id,
      reason: response.error.reason,
      ...(response.error.field !== undefined ? { field: response.error.field } : {}),
    };
  return { ok: true, id: response.id, result: response.result };
}

/** Runs every case on one connection, in order; also returns the maxFrameBytes the device stated. */
async function runCases(client: RawLineClient): Promise<{ outcomes: Outcome[]; maxFrameBytes: number }> {
  const outcomes: Outcome[] = [];
  let maxFrameBytes = 0;
  let probe = 900;
  for (const protocolCase of PROTOCOL_CASES) {
    const line = protocolCase.line(maxFrameBytes);
    if (protocolCase.expected === 'no answer') {
      // Proven without waiting: the next frame answers the request sent after it, a harmless get.
      await client.write(`${line}\n`);
      const next = await client.request(`{"id":${++probe},"op":"call","tool":"get","args":{}}`);
      outcomes.push(next.id === probe ? 'no answer' : outcomeOf(next));
      continue;
    }
    const response = await client.request(line);
    if (typeof protocolCase.expected === 'object' && 'hello' in protocolCase.expected && response.ok) {
      const hello = helloResultSchema.parse(response.result);
      maxFrameBytes = hello.maxFrameBytes ?? 0;
      outcomes.push({ hello: response.id, kind: hello.device.kind, tools: hello.tools, concurrent: hello.concurrent });
    } else {
      outcomes.push(outcomeOf(response));
    }
  }
  return { outcomes, maxFrameBytes };
}

describeBoards('the serial protocol as the simulator and the Arduino library speak it', () => {
  it('answers every protocol case the same way, as docs/serial-protocol.md says, on the TypeScript simulator and on the firmware in simavr', async () => {
    const lamp = await buildExample('Lamp');
    const board = await startSimavrBoard({ elfPath: lamp.elfPath });
    owned.add({ close: () => board.kill() });
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));

    const onFirmware = await runCases(owned.add(await openListeningBoard(board)));
    const onSimulator = await runCases(owned.add(await openRawLineClient(sim.devices[0]!.path)));

    // Each device states its own limit, and each is held to the one it states.
    expect(onFirmware.maxFrameBytes).toBe(128);
    expect(onSimulator.maxFrameBytes).toBe(4096);
    const expected = PROTOCOL_CASES.map((protocolCase) => protocolCase.expected);
    const withoutHello = (outcomes: Outcome[]) =>
      outcomes.map((outcome) => (typeof outcome === 'object' && 'hello' in outcome ? { hello: outcome.hello } : outcome));
    expect(withoutHello(onFirmware.outcomes)).toEqual(expected);
    expect(withoutHello(onSimulator.outcomes)).toEqual(expected);
    // The hellos agree too: same kind, and the very same tools (names, descriptions, schemas, declarations).
    expect(onFirmware.outcomes).toEqual(onSimulator.outcomes);
  }, 60_000);
});
