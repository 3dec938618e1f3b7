import type { Plugin } from '../plugins/plugin.ts';

/** Two tools of one request share a name: providers refuse such a request, and a call could reach the wrong tool. */
export class DuplicateToolNameError extends Error {
  override readonly name = 'DuplicateToolNameError';
}

/**
 * Throws `DuplicateToolNameError` when a name occurs twice in `tools`, naming the plugins that
 * offer it (as far as `plugins` tell). The last line of defence: devices are refused at hello
 * when their names would collide, so this fires only for a plugin or listener that slipped through.
 */
export function assertUniqueToolNames(options: {
  tools: readonly { name: string }[];
  plugins?: readonly Plugin[];
  /** Where the list came from, for the message (`the enabled plugins`, `the assemble listeners`). */
  from: string;
}): void {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const tool of options.tools) {
    if (seen.has(tool.name)) twice.add(tool.name);
    seen.add(tool.name);
  }
  if (twice.size === 0) return;
  const described = [...twice].sort().map((name) => {
    const owners = (options.plugins ?? [])
      .filter((plugin) => plugin.tools().some((tool) => tool.name === name))
      .map((plugin) => plugin.name);
    return owners.length > 0 ? `'${name}' (offered by ${owners.join(' and ')})` : `'${name}'`;
  });
  throw new DuplicateToolNameError(
    `${options.from} offer more than one tool named ${described.join(', ')}; a request may carry each name once, so none was sent: disable or fix the plugin or device that takes a name it does not own`,
  );
}
