import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { DemoModel } from '../../../core/models/demo/demo-model.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host with the demo model and the simulated home (`--sim`). */
async function demoHome(): Promise<Host> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-host-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const host = await createHost({
    dataDir,
    transport: 'cli',
    model: new DemoModel(),
    attachDevices: (stores) =>
      attachDevices({
        sim: true,
        simLatencyMs: 0,
        devices: [],
        ...stores,
        log: () => {},
        signal: new AbortController().signal,
      }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

/** One turn: the system prompt the model was sent, the tools it called and the words it said. */
async function turn(host: Host, text: string): Promise<{ system: string; calls: string[]; said: string }> {
  const events: AgentEvent[] = [];
  const systems: string[] = [];
  const unsubscribe = host.events.subscribe((event) => events.push(event));
  const model = await host.models.current();
  const stream = model.stream.bind(model);
  model.stream = (request, options) => {
    systems.push(request.system);
    return stream(request, options);
  };
  await host.agent.runTurn({ conversationId: 'c1', text });
  model.stream = stream;
  unsubscribe();
  return {
    system: systems[0] ?? '',
    calls: events.flatMap((event) => (event.type === 'tool/start' ? [event.name] : [])),
    said: events.flatMap((event) => (event.type === 'text/delta' ? [event.text] : [])).join(''),
  };
}

describe('the demo model when the person turned the Devices plugin off', () => {
  it('says the plugin is off (the prompt names it) instead of that there is no lamp, and acts on nothing', async () => {
    const host = await demoHome();
    expect(await host.handlers['plugins/set-enabled']({ name: 'devices', enabled: false })).toEqual({ applied: true });
    const off = await turn(host, 'turn on all lamps');
    expect(off.system).toContain('Plugins the person turned off: devices.');
    expect(off.calls).toEqual([]);
    expect(off.said).toBe(
      'The Devices plugin is turned off, so I can reach no device and did nothing. Turn it on in the Plugins tab, then ask again.',
    );

    await host.handlers['plugins/set-enabled']({ name: 'devices', enabled: true });
    const on = await turn(host, 'turn on all lamps');
    expect(on.system).not.toContain('Plugins the person turned off');
    expect(on.calls).toEqual(['lamp__set', 'lamp__set']);
  });
});
