// Child process of the crash test: runs turns in one conversation until the parent kills it,
// printing the type of every event as it is journaled, so the parent can pick its moment. The model
// is a loopback server speaking Anthropic Messages (a content_block_stop per tool_use block, the
// blocks paced apart, so calls start while the reply still streams), driving the simulated devices:
// a parallel batch, then a dependent call, then text.
import { createHost } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { createAnthropicAdapter } from '../../../core/models/anthropic/create-anthropic-adapter.ts';
import { startLoopbackModelServer, type LoopbackReply } from '../../helpers/loopback-model-server.ts';
import {
  anthropicBlockStop,
  anthropicEnd,
  anthropicStart,
  anthropicText,
  anthropicToolOpen,
} from '../../helpers/anthropic-stream.ts';

const [dataDir, latency, conversationId] = process.argv.slice(2);
if (dataDir === undefined || latency === undefined || conversationId === undefined)
  throw new Error('usage: run-turns-until-killed.ts <data dir> <device latency ms> <conversation id>');

const TURNS = 200;
/** Pacing between tool_use blocks: a kill just after an early tool/start lands while the reply streams. */
const BLOCK_PAUSE_MS = 30;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function toolReply(text: string, calls: { name: string; args: object }[]): LoopbackReply {
  return {
    pieces: async function* () {
      yield anthropicStart() + anthropicText(0, text);
      for (const [position, call] of calls.entries()) {
        const index = position + 1;
        yield anthropicToolOpen({ index, id: `toolu_${Date.now()}_${index}`, ...call }) + anthropicBlockStop(index);
        await pause(BLOCK_PAUSE_MS);
      }
      yield anthropicEnd();
    },
  };
}

let turn = 0;
let reply = 0;
const server = await startLoopbackModelServer();
server.reply(() => {
  const which = reply++ % 3;
  const on = turn % 2 === 0;
  if (which === 0)
    return toolReply('Switching the lamps and reading the temperature.', [
      { name: 'lamp__set', args: { device_id: 'lamp-1', on } },
      { name: 'lamp__set', args: { device_id: 'lamp-2', on } },
      { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
    ]);
  if (which === 1)
    return toolReply('', [{ name: 'display__show', args: { device_id: 'display-1', text: `turn ${turn}` } }]);
  return {
    pieces: async function* () {
      yield anthropicStart() + anthropicText(0, `Done: the lamps are ${on ? 'on' : 'off'}.`) + anthropicEnd('end_turn');
    },
  };
});

const abort = new AbortController();
const host = await createHost({
  dataDir,
  transport: 'cli',
  model: createAnthropicAdapter({ baseUrl: server.url, model: 'crash-test', apiKey: 'loopback', maxRetries: 0 }),
  attachDevices: () =>
    attachDevices({ sim: true, simLatencyMs: Number(latency), devices: [], log: () => {}, signal: abort.signal }),
  log: (line) => process.stderr.write(`${line}\n`),
  version: 'crash-test',
});
host.events.subscribe((event) => process.stdout.write(`${event.type}\n`));
for (; turn < TURNS; turn += 1) {
  reply = 0;
  await host.agent.runTurn({
    conversationId,
    text: `Turn ${turn}: lamps ${turn % 2 === 0 ? 'on' : 'off'}, and show it`,
  });
}
await host.dispose();
await server.close();
