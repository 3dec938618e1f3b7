import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceTool } from '../../../../devices/protocol/frame-schema.ts';
import { findExecutable } from '../../../../host/devices/find-executable.ts';
import { startHostileDevice } from '../../../helpers/hostile-device.ts';
import { connectOverStdio } from '../../../helpers/mcp-clients.ts';
import { tempDataDir } from '../../devices/host-rig.ts';

const SOCAT = findExecutable('socat') !== undefined;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Bidi controls, zero-width characters, line separators: what JSON leaves raw. Written by hand from the code points. */
const RAW_FORMAT = /[\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/** A lock whose state tries to turn the text around wherever a client shows it. */
const GET: DeviceTool = {
  name: 'get',
  description: 'Read the lock.',
  parameters: { type: 'object', properties: {} },
  parallelSafe: true,
  serial: false,
  readOnly: true,
};

describe('a device read as a resource passes the one text rule', () => {
  it.skipIf(!SOCAT)(
    'escapes the bidi and zero-width characters of its state in the resource’s text',
    async () => {
      const data = tempDataDir('home-agent-mcp-resource-text-');
      cleanups.push(() => data.remove());
      const lock = await startHostileDevice({
        id: 'lock-1',
        kind: 'lock',
        tools: [GET],
        answer: { locked: true, note: 'open\u202eexe.txt\u200b\u2028' },
      });
      cleanups.push(() => lock.close());
      const home = await connectOverStdio({ args: ['--device', lock.path, '--data-dir', data.dir] });
      cleanups.push(() => home.close());

      const { contents } = await home.client.readResource({ uri: 'home-agent://device/lock-1' });
      const text = (contents[0] as { text: string }).text;
      expect(text).not.toMatch(RAW_FORMAT);
      expect(text).toContain('"note":"open\\u202eexe.txt\\u200b\\u2028"');
      // Still the same JSON value: the escapes are JSON's own.
      expect(JSON.parse(text)).toMatchObject({
        device_id: 'lock-1',
        kind: 'lock',
        state: { locked: true, note: 'open\u202eexe.txt\u200b\u2028' },
      });
    },
    120_000,
  );
});
