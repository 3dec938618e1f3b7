// The saved sequences are the session's prompts: a save, rename or delete that changes them is
// announced to the client (notifications/prompts/list_changed), and a save that changes nothing is not.
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectOverStdio, type ConnectedClient } from '../../../helpers/mcp-clients.ts';
import { tempDataDir } from '../../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SLOW = 120_000;

/** A sequence of one call that only lists the tools: something a sequence may run in any home. */
function sequence(name: string, description: string): Record<string, unknown> {
  return { name, description, groups: [{ id: 'g1', calls: [{ tool: 'system_list_tools', args: {} }] }] };
}

/** Counts the announcements a client gets. */
function announcements(home: ConnectedClient): () => number {
  let count = 0;
  home.client.setNotificationHandler(PromptListChangedNotificationSchema, () => void (count += 1));
  return () => count;
}

describe('home-agent mcp announces changes of its prompts', () => {
  it(
    'declares prompts.listChanged and tells the client when a sequence is saved, renamed or deleted, but not for a save that changes nothing',
    async () => {
      const data = tempDataDir('home-agent-mcp-prompts-changed-');
      cleanups.push(() => data.remove());
      const home = await connectOverStdio({ args: ['--data-dir', data.dir] });
      cleanups.push(() => home.close());
      expect(home.client.getServerCapabilities()?.prompts).toEqual({ listChanged: true });
      const announced = announcements(home);
      // A listing is answered after the announcements of every change before it: the count is whole then.
      const listed = async (): Promise<{ names: string[]; announced: number }> => {
        const { prompts } = await home.client.listPrompts();
        return { names: prompts.map((prompt) => `${prompt.name}: ${prompt.description}`), announced: announced() };
      };
      const call = async (name: string, args: Record<string, unknown>): Promise<void> => {
        const result = await home.call(name, args);
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      };
      expect(await listed()).toEqual({ names: [], announced: 0 });

      await call('seq_save', sequence('evening', 'Evening lights.'));
      expect(await listed()).toEqual({ names: ['evening: Evening lights.'], announced: 1 });

      // Saved again as it was: nothing to announce.
      await call('seq_save', sequence('evening', 'Evening lights.'));
      expect(await listed()).toEqual({ names: ['evening: Evening lights.'], announced: 1 });

      await call('seq_save', sequence('evening', 'Evening lights, dimmed.'));
      expect(await listed()).toEqual({ names: ['evening: Evening lights, dimmed.'], announced: 2 });

      // Renamed: saved under the new name, the old one deleted; each step announced.
      await call('seq_save', sequence('night', 'Evening lights, dimmed.'));
      await call('seq_delete', { name: 'evening' });
      expect(await listed()).toEqual({ names: ['night: Evening lights, dimmed.'], announced: 4 });

      await call('seq_delete', { name: 'night' });
      expect(await listed()).toEqual({ names: [], announced: 5 });
    },
    SLOW,
  );
});
