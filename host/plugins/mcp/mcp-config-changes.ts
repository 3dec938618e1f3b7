import { canonicalJson } from '../../../core/agent/canonical-json.ts';
import type { McpServerConfig } from './mcp-config.ts';
import { mcpServerIdentity } from './mcp-server-identity.ts';

/** How a config's servers differ from the ones running, by plugin name. */
export interface McpConfigChanges {
  added: McpServerConfig[];
  /** The plugin names of the servers no longer configured. */
  removed: string[];
  /** Servers configured differently; `identityChanged` when their command, args, cwd or URL did (trust is given to those). */
  changed: { server: McpServerConfig; identityChanged: boolean }[];
}

/** Pure: what changed from `before` to `after` (a server whose entry is the same is in none of the lists). */
export function mcpConfigChanges(
  before: readonly McpServerConfig[],
  after: readonly McpServerConfig[],
): McpConfigChanges {
  const old = new Map(before.map((server) => [server.pluginName, server]));
  const changes: McpConfigChanges = { added: [], removed: [], changed: [] };
  for (const server of after) {
    const was = old.get(server.pluginName);
    old.delete(server.pluginName);
    if (was === undefined) changes.added.push(server);
    else if (canonicalJson(was.transport) !== canonicalJson(server.transport))
      changes.changed.push({ server, identityChanged: mcpServerIdentity(was) !== mcpServerIdentity(server) });
  }
  changes.removed = [...old.keys()];
  return changes;
}
