import { z } from 'zod';

/**
 * Every value the renderer keeps across reloads, and where. This table is the only place that
 * names a storage key; nothing else touches localStorage or sessionStorage.
 */
export const persistedKeys = {
  /**
   * The web token, per origin (the host keeps it across restarts): taken from `#token=` once, so a
   * bookmark of the plain address and a reopened tab still get in.
   */
  token: { storage: 'local', name: 'home-agent.token', schema: z.string().min(1).max(512) },
  /** The conversation to reopen on the next start. */
  lastConversationId: { storage: 'local', name: 'home-agent.last-conversation-id', schema: z.string().min(1).max(200) },
} as const;

export type PersistedKey = keyof typeof persistedKeys;

/** The two Web Storage areas, injectable so the table can be used where there is no window. */
export interface StorageAreas {
  local: Storage | undefined;
  session: Storage | undefined;
}

/** The browser's storage areas; undefined where the page may not use them (sandboxed, blocked). */
export function browserStorageAreas(): StorageAreas {
  return { local: safeStorage(() => window.localStorage), session: safeStorage(() => window.sessionStorage) };
}

/** Reads a persisted value; undefined when absent, unreadable or not of the declared shape. */
export function readPersisted(areas: StorageAreas, key: PersistedKey): string | undefined {
  const entry = persistedKeys[key];
  const raw = areas[entry.storage]?.getItem(entry.name) ?? undefined;
  const parsed = entry.schema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Writes (or, with undefined, removes) a persisted value. */
export function writePersisted(areas: StorageAreas, key: PersistedKey, value: string | undefined): void {
  const entry = persistedKeys[key];
  const area = areas[entry.storage];
  if (!area) return;
  try {
    if (value === undefined) area.removeItem(entry.name);
    else area.setItem(entry.name, value);
  } catch (error) {
    // A full or blocked storage costs only the convenience of reopening; the app works without it.
    console.warn(`Could not persist ${key}:`, error);
  }
}

function safeStorage(get: () => Storage): Storage | undefined {
  try {
    return get();
  } catch (error) {
    // Some sandboxed contexts throw on access; the table then behaves as if nothing was stored.
    console.warn('Web Storage is not available:', error);
    return undefined;
  }
}
