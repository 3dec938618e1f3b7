/**
 * The tools a sequence may not call, as name patterns (`*` matches any run of characters) with the
 * reason given to the model. Only these four kinds: calling tools by name is the point of a
 * sequence and stays; recursion between sequences goes through `sequence:` entries, which the
 * graph check and the depth limit bound (seed 001, phase 3/4, "黑名单分层").
 */
export const REFUSED_IN_SEQUENCE: readonly { pattern: string; why: string }[] = [
  { pattern: 'output_send__*', why: 'it messages the outside world' },
  { pattern: 'spawn_*', why: 'it spawns an agent' },
  { pattern: 'agent_spawn*', why: 'it spawns an agent' },
  { pattern: 'subagent_*', why: 'it spawns an agent' },
  { pattern: 'plugin_*', why: 'it changes the plugin table' },
  { pattern: 'plugins_*', why: 'it changes the plugin table' },
  { pattern: 'seq_run', why: 'it runs a whole sequence (call another sequence with a "sequence" entry instead)' },
];

function matches(pattern: string, name: string): boolean {
  const expression = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return expression.test(name);
}

/**
 * Why a tool may not run inside a sequence, or null when it may. A tool that declares an output
 * channel messages the outside world whatever its name, and a tool may declare its own refusal
 * (`sequenceRefusal`: an MCP tool unless trusted and read-only), so the declaration counts when known.
 * Checked at save (by name, and by declaration if the tool exists then) and again at every run.
 */
export function refusedInSequence(tool: {
  name: string;
  outputChannel?: string | undefined;
  sequenceRefusal?: string | undefined;
}): string | null {
  const rule = REFUSED_IN_SEQUENCE.find((entry) => matches(entry.pattern, tool.name));
  if (rule) return `${tool.name} may not run inside a sequence: ${rule.why}`;
  if (tool.outputChannel !== undefined)
    return `${tool.name} may not run inside a sequence: it messages the outside world (output channel '${tool.outputChannel}')`;
  if (tool.sequenceRefusal !== undefined) return `${tool.name} may not run inside a sequence: ${tool.sequenceRefusal}`;
  return null;
}
