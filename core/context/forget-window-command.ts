import type { ContextKey } from './context-memory.ts';

/**
 * The command line that forgets the learned window of `key` (base URL and model, quoted for a
 * POSIX shell where needed); a model without a server is named by its model alone.
 */
export function forgetWindowCommand(key: ContextKey): string {
  const baseUrl = key.baseUrl.replace(/\/+$/, '');
  return [
    'home-agent models forget-window',
    ...(baseUrl === '' ? [] : ['--base-url', shellWord(baseUrl)]),
    '--model',
    shellWord(key.model),
  ].join(' ');
}

/** A word as a shell reads it back: bare when it holds only safe characters, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w.,:/@%+=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
