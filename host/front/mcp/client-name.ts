import { isInvisible, safeText } from '../../../core/text/safe-text.ts';

/** The longest client name shown (a conversation title, a turn's first line); longer ones are cut. */
export const MAX_CLIENT_NAME_LENGTH = 100;

/**
 * The name an MCP client gave itself at `initialize`, safe to show: a client is untrusted, so the
 * one text rule (`safeText`) shows what could act instead of being read (controls, bidi controls,
 * zero-width characters) as `\uXXXX`, and it is cut to MAX_CLIENT_NAME_LENGTH characters. A client
 * that gave no name, or one with nothing visible in it, is "an MCP client".
 */
export function clientNameOf(implementation: { name?: unknown } | undefined): string {
  const given = typeof implementation?.name === 'string' ? implementation.name.trim() : '';
  if (isInvisible(given)) return 'an MCP client';
  const characters = [...given];
  const cut =
    characters.length > MAX_CLIENT_NAME_LENGTH ? `${characters.slice(0, MAX_CLIENT_NAME_LENGTH).join('')}…` : given;
  return safeText(cut);
}
