const TITLE_LENGTH = 60;

/**
 * Pure: a conversation's title from its first message — the first line, spaces collapsed, cut at
 * a word boundary to at most 60 characters with an ellipsis; "New conversation" when nothing is left.
 */
export function titleFromMessage(text: string): string {
  const line = (text.split(/\r?\n/).find((part) => part.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  if (line === '') return 'New conversation';
  if (line.length <= TITLE_LENGTH) return line;
  const cut = line.slice(0, TITLE_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space >= TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}
