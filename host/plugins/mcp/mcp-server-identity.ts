import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../core/agent/canonical-json.ts';
import type { McpServerConfig } from './mcp-config.ts';

/** What trust is given to: how the server is started (command, args, cwd) or where it is (URL), as a sha256. */
export function mcpServerIdentity(config: McpServerConfig): string {
  const { transport } = config;
  const how =
    transport.kind === 'stdio'
      ? { command: transport.command, args: transport.args, cwd: transport.cwd ?? null }
      : { url: transport.url };
  return createHash('sha256').update(canonicalJson(how), 'utf8').digest('hex');
}
