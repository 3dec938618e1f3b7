import { afterEach, describe, expect, it } from 'vitest';
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { SqliteConversationStore } from '../../../../host/store/sqlite-conversation-store.ts';
import { runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { connectOverStdio } from '../../../helpers/mcp-clients.ts';
import { tempDataDir } from '../../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SLOW = 120_000;

function journalOf(dataDir: string): AgentEvent[] {
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  try {
    const store = new SqliteConversationStore({ db });
    return store.listConversations().flatMap((conversation) => store.loadEvents(conversation.id));
  } finally {
    db.close();
  }
}

/** Resolves once `check` holds, checked on every notification the client gets (never on a timer). */
function until(check: () => boolean, changes: { on: (listener: () => void) => void }): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    changes.on(() => check() && resolve());
  });
}

describe('home-agent mcp serves the devices it may read as resources', () => {
  it(
    'lists the readable ones, reads one as a journaled turn with as_of, tells a subscriber of its changes until it unsubscribes, and follows a grant live',
    async () => {
      const data = tempDataDir('home-agent-mcp-resources-');
      cleanups.push(() => data.remove());
      // A paired lamp nobody granted anything: not the session's to read.
      const paired = await startSimProcess({ kinds: ['lamp'], ids: ['lamp-9'] });
      cleanups.push(() => paired.stop());
      const pairing = await runCli(['devices', 'pair', paired.devices[0]!.path, '--yes', '--data-dir', data.dir]);
      expect(pairing.code, pairing.stderr).toBe(0);
      const home = await connectOverStdio({ args: ['--sim', '--sim-latency-ms', '0', '--data-dir', data.dir] });
      cleanups.push(() => home.close());
      const updated: string[] = [];
      let listChanged = 0;
      const listeners: (() => void)[] = [];
      const changes = { on: (listener: () => void) => listeners.push(listener) };
      home.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updated.push(notification.params.uri);
        for (const listener of listeners) listener();
      });
      home.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        listChanged += 1;
        for (const listener of listeners) listener();
      });

      const { resources } = await home.client.listResources();
      expect(resources).toEqual([
        {
          uri: 'home-agent://device/lamp-1',
          name: 'lamp-1',
          title: 'lamp-1',
          description: 'lamp-1, a lamp: its identity and last known state (read with lamp__get), with as_of.',
          mimeType: 'application/json',
        },
        {
          uri: 'home-agent://device/lamp-2',
          name: 'lamp-2',
          title: 'lamp-2',
          description: 'lamp-2, a lamp: its identity and last known state (read with lamp__get), with as_of.',
          mimeType: 'application/json',
        },
        {
          uri: 'home-agent://device/thermometer-1',
          name: 'thermometer-1',
          title: 'thermometer-1',
          description:
            'thermometer-1, a thermometer: its identity and last known state (read with thermometer__read), with as_of.',
          mimeType: 'application/json',
        },
      ]);

      const before = Date.now();
      const read = await home.client.readResource({ uri: 'home-agent://device/lamp-1' });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]).toMatchObject({ uri: 'home-agent://device/lamp-1', mimeType: 'application/json' });
      const body = JSON.parse((read.contents[0] as { text: string }).text) as Record<string, unknown>;
      expect(body).toEqual({
        device_id: 'lamp-1',
        alias: 'lamp-1',
        kind: 'lamp',
        state: { on: false, brightness: 100 },
        as_of: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(Date.parse(body.as_of as string)).toBeGreaterThanOrEqual(before);
      // Not granted, not listed, not read: the grant check holds for resources as for calls.
      await expect(home.client.readResource({ uri: 'home-agent://device/lamp-9' })).rejects.toThrow(/-32002/);

      expect(await home.client.subscribeResource({ uri: 'home-agent://device/lamp-1' })).toEqual({});
      expect(await home.client.subscribeResource({ uri: 'test://not-ours' })).toEqual({});
      expect((await home.call('lamp__set', { device_id: 'lamp-1', on: true })).isError).toBeFalsy();
      await until(() => updated.includes('home-agent://device/lamp-1'), changes);
      expect(await home.client.unsubscribeResource({ uri: 'home-agent://device/lamp-1' })).toEqual({});
      const told = updated.length;
      // After the unsubscribe lamp-1's change is not told; lamp-2's, subscribed since, is (and comes after).
      await home.client.subscribeResource({ uri: 'home-agent://device/lamp-2' });
      await home.call('lamp__set', { device_id: 'lamp-1', on: false });
      await home.call('lamp__set', { device_id: 'lamp-2', on: true });
      await until(() => updated.includes('home-agent://device/lamp-2'), changes);
      expect(updated.slice(told)).toEqual(['home-agent://device/lamp-2']);

      // Granted from another process: the list follows, and the client is told.
      const granted = await runCli(['devices', 'grant', 'lamp-9', 'get', '--data-dir', data.dir]);
      expect(granted.code, granted.stderr).toBe(0);
      await until(() => listChanged > 0, changes);
      const after = (await home.client.listResources()).resources.map((resource) => resource.uri);
      expect(after).toContain('home-agent://device/lamp-9');
      await home.close();

      // The read is journaled as the session's calls are: a turn of its own, ending ok.
      const reads = journalOf(data.dir).filter((event) => event.type === 'tool/end' && event.name === 'lamp__get');
      expect(reads).toEqual([
        expect.objectContaining({ ok: true, outcome: 'done', conversationId: expect.stringMatching(/^mcp-/) }),
      ]);
    },
    SLOW,
  );
});
