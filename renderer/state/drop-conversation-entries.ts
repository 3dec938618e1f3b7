/** Entries by id and, per conversation, their ids in order: how the turns and the batches are kept. */
export interface ConversationEntries<T> {
  byId: Record<string, T>;
  order: Record<string, string[]>;
}

/** Pure: the entries without those of one conversation; undefined when it has none, so the caller keeps what it had. */
export function dropConversationEntries<T>(
  entries: ConversationEntries<T>,
  conversationId: string,
): ConversationEntries<T> | undefined {
  const ids = entries.order[conversationId];
  if (!ids) return undefined;
  const byId = { ...entries.byId };
  for (const id of ids) delete byId[id];
  const order = { ...entries.order };
  delete order[conversationId];
  return { byId, order };
}
