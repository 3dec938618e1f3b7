import { describe, expect, it } from 'vitest';
import {
  persistedKeys,
  readPersisted,
  writePersisted,
  type StorageAreas,
} from '../../../renderer/state/persisted-keys.ts';
import { tokenFromHash } from '../../../renderer/api/create-api-client.ts';
import { MemoryStorage } from '../helpers/memory-storage.ts';

describe('persistedKeys', () => {
  it('keeps the token per origin (a bookmark gets in) and the last conversation across restarts, under their declared names', () => {
    const areas: StorageAreas = { local: new MemoryStorage(), session: new MemoryStorage() };
    writePersisted(areas, 'token', 'secret');
    writePersisted(areas, 'lastConversationId', 'c1');
    expect(areas.local?.getItem('home-agent.token')).toBe('secret');
    expect(areas.local?.getItem('home-agent.last-conversation-id')).toBe('c1');
    expect(areas.session?.getItem('home-agent.token')).toBeNull();
    expect([readPersisted(areas, 'token'), readPersisted(areas, 'lastConversationId')]).toEqual(['secret', 'c1']);
  });

  it('reads a value of the wrong shape as absent', () => {
    const areas: StorageAreas = { local: new MemoryStorage(), session: new MemoryStorage() };
    areas.local?.setItem(persistedKeys.lastConversationId.name, '');
    expect(readPersisted(areas, 'lastConversationId')).toBeUndefined();
  });

  it('removes a value written as undefined, and works with no storage at all', () => {
    const areas: StorageAreas = { local: new MemoryStorage(), session: new MemoryStorage() };
    writePersisted(areas, 'lastConversationId', 'c1');
    writePersisted(areas, 'lastConversationId', undefined);
    expect(readPersisted(areas, 'lastConversationId')).toBeUndefined();
    writePersisted({ local: undefined, session: undefined }, 'token', 'x');
    expect(readPersisted({ local: undefined, session: undefined }, 'token')).toBeUndefined();
  });
});

describe('tokenFromHash', () => {
  it('reads the token from the fragment `home-agent serve` prints', () => {
    expect([
      tokenFromHash('#token=abc123'),
      tokenFromHash('#x=1&token=t%2Bk'),
      tokenFromHash(''),
      tokenFromHash('#token='),
    ]).toEqual(['abc123', 't+k', undefined, undefined]);
  });
});
