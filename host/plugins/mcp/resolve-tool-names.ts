/** A server's tool: its own name and the name it would be offered under. */
export interface CandidateTool {
  original: string;
  name: string;
}

/** Which tools each server may offer, and, per server, the tools left out and why. */
export interface ResolvedToolNames {
  /** Per plugin, the original names of the tools it offers. */
  offered: Map<string, Set<string>>;
  /** Per plugin, one sentence per tool left out, naming both tools. */
  problems: Map<string, string[]>;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Checks the names every server would offer against each other and against the tools of the other
 * plugins (`reserved`: name → plugin) before any is offered. A name already taken — by another
 * plugin, or by a server's tool that comes first (plugins by name, then tools by name, in code-unit
 * order) — leaves the later tool out with a sentence naming both; the rest are offered. So a clash
 * costs one tool, never the turn (the prompt's duplicate check stays the last line).
 */
export function resolveToolNames(options: {
  servers: readonly { plugin: string; tools: readonly CandidateTool[] }[];
  reserved: ReadonlyMap<string, string>;
}): ResolvedToolNames {
  const owners = new Map<string, { plugin: string; original?: string }>();
  for (const [name, plugin] of options.reserved) owners.set(name, { plugin });
  const offered = new Map<string, Set<string>>();
  const problems = new Map<string, string[]>();
  const servers = [...options.servers].sort((a, b) => byCodeUnit(a.plugin, b.plugin));
  for (const server of servers) {
    const kept = new Set<string>();
    const left: string[] = [];
    for (const tool of [...server.tools].sort((a, b) => byCodeUnit(a.original, b.original))) {
      const owner = owners.get(tool.name);
      if (owner === undefined) {
        owners.set(tool.name, { plugin: server.plugin, original: tool.original });
        kept.add(tool.original);
        continue;
      }
      const other =
        owner.original !== undefined
          ? `'${owner.original}' of ${owner.plugin}`
          : `a tool of the plugin ${owner.plugin}`;
      left.push(
        `'${tool.original}' of ${server.plugin} is left out: its name ${tool.name} is also the name of ${other}`,
      );
    }
    offered.set(server.plugin, kept);
    if (left.length > 0) problems.set(server.plugin, left);
  }
  return { offered, problems };
}
