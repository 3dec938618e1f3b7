/** The longest client name shown (a conversation title, a turn's first line); longer ones are cut. */
export const MAX_CLIENT_NAME_LENGTH = 100;

// TODO(issue 21): use the one escaping rule for untrusted text, core/text/safe-text.ts (safeText),
// once it is on main; this local copy escapes the same kinds of characters.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * The name an MCP client gave itself at `initialize`, safe to show: a client is untrusted, so
 * characters that could act instead of being read (controls, bidi controls, zero-width characters)
 * become `\uXXXX`, and it is cut to MAX_CLIENT_NAME_LENGTH characters; no name is "an MCP client".
 */
export function clientNameOf(implementation: { name?: unknown } | undefined): string {
  const given = typeof implementation?.name === 'string' ? implementation.name.trim() : '';
  if (given === '') return 'an MCP client';
  const characters = [...given];
  const cut =
    characters.length > MAX_CLIENT_NAME_LENGTH ? `${characters.slice(0, MAX_CLIENT_NAME_LENGTH).join('')}…` : given;
  return cut.replace(UNSAFE, escapeOf);
}

/** JSON's escape of each UTF-16 code unit of one character. */
function escapeOf(character: string): string {
  let escaped = '';
  for (let index = 0; index < character.length; index += 1)
    escaped += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return escaped;
}
