// Child process of the crash test: runs turns in one conversation (a scripted model driving the
// simulated devices: a parallel batch, then a dependent call, then text) until the parent kills it,
// printing the type of every event as it is journaled, so the parent can pick its moment.
import { createHost } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';

const [dataDir, latency, conversationId] = process.argv.slice(2);
if (dataDir === undefined || latency === undefined || conversationId === undefined)
  throw new Error('usage: run-turns-until-killed.ts <data dir> <device latency ms> <conversation id>');

const TURNS = 200;
const replies: Script['replies'] = [];
for (let turn = 0; turn < TURNS; turn += 1) {
  const on = turn % 2 === 0;
  replies.push(
    {
      text: 'Switching the lamps and reading the temperature.',
      toolCalls: [
        { name: 'lamp__set', args: { device_id: 'lamp-1', on } },
        { name: 'lamp__set', args: { device_id: 'lamp-2', on } },
        { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
      ],
    },
    { toolCalls: [{ name: 'display__show', args: { device_id: 'display-1', text: `turn ${turn}` } }] },
    { text: `Done: the lamps are ${on ? 'on' : 'off'}.` },
  );
}

const abort = new AbortController();
const host = await createHost({
  dataDir,
  transport: 'cli',
  model: new ScriptedModel({ replies }),
  attachDevices: () =>
    attachDevices({ sim: true, simLatencyMs: Number(latency), devices: [], log: () => {}, signal: abort.signal }),
  log: (line) => process.stderr.write(`${line}\n`),
  version: 'crash-test',
});
host.events.subscribe((event) => process.stdout.write(`${event.type}\n`));
for (let turn = 0; turn < TURNS; turn += 1)
  await host.agent.runTurn({
    conversationId,
    text: `Turn ${turn}: lamps ${turn % 2 === 0 ? 'on' : 'off'}, and show it`,
  });
await host.dispose();
