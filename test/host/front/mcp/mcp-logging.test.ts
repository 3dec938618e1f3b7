import { afterEach, describe, expect, it } from 'vitest';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectOverStdio } from '../../../helpers/mcp-clients.ts';
import { tempDataDir } from '../../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('home-agent mcp sends its session’s log lines at the level the client set', () => {
  it('sends nothing before logging/setLevel, then the calls’ lines at or above the level', async () => {
    const data = tempDataDir('home-agent-mcp-logging-');
    cleanups.push(() => data.remove());
    const home = await connectOverStdio({ args: ['--sim', '--sim-latency-ms', '0', '--data-dir', data.dir] });
    cleanups.push(() => home.close());
    const lines: { level: string; data: unknown }[] = [];
    home.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      lines.push({ level: notification.params.level, data: notification.params.data });
    });
    await home.call('lamp__get', { device_id: 'lamp-1' });
    await home.client.ping();
    expect(lines).toEqual([]);

    expect(await home.client.setLoggingLevel('info')).toEqual({});
    await home.call('lamp__set', { device_id: 'lamp-1', on: true });
    await home.client.ping();
    expect(lines).toEqual([
      { level: 'info', data: 'lamp__set on lamp-1 started' },
      { level: 'info', data: 'lamp__set on lamp-1 ended: ok (outcome done)' },
    ]);

    lines.length = 0;
    expect(await home.client.setLoggingLevel('warning')).toEqual({});
    await home.call('lamp__get', { device_id: 'lamp-2' });
    await home.call('lamp__get', { device_id: 'lamp-7' });
    await home.call('lamp__set', { device_id: 'lamp-1', on: 'sk-secret-0123456789' });
    await home.call('x'.repeat(200), {});
    await home.client.ping();
    // Names and outcomes, never an argument's value nor a failure's detail (which may quote one).
    expect(lines).toEqual([
      { level: 'warning', data: 'lamp__get on lamp-7 ended: unauthorized (outcome not_sent)' },
      { level: 'warning', data: 'lamp__set on lamp-1 ended: type (outcome not_sent)' },
      {
        level: 'warning',
        data: `There is no tool named '${'x'.repeat(100)}…': names are at most 128 characters. List the tools to see the names that exist.`,
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('sk-secret');
  }, 120_000);
});
