import type { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import { settingValue } from '../../contract/settings-table.ts';
import type { HostPluginManifest } from '../plugin-part.ts';
import path from 'node:path';
import { MCP_CONFIG_FILE_NAME, mcpConfigOf } from './mcp-config.ts';
import { McpTrustStore } from './mcp-trust-store.ts';
import type { McpElicitationFrontEnd } from './mcp-elicitation.ts';
import type { McpSignInFrontEnd } from './oauth/mcp-oauth.ts';

/** What a run may say of the MCP servers it uses, among the host's options. */
export interface McpClientOptions {
  /**
   * The MCP config of this run (`--mcp-config FILE`), in place of the data folder's `mcp.json`; it
   * must exist and be readable.
   */
  mcpConfigFile?: string;
  /** Where `${VAR}` in an MCP config is read from (default: this process's environment). */
  mcpEnvironment?: Readonly<Record<string, string | undefined>>;
  /**
   * The person's front end for a server's question during a call (elicitation), in place of the
   * host's (a window or browser shows the form; with none open it is declined); never the model.
   */
  mcpElicitation?: McpElicitationFrontEnd;
  /**
   * What opens a server's sign-in page for the person (OAuth 2.1). Without one, the Plugins tab shows
   * the link and `home-agent plugins login mcp-NAME` signs in from the terminal.
   */
  mcpSignIn?: McpSignInFrontEnd;
  /** A client ID metadata document's https URL, for authorization servers that take one instead of registration. */
  mcpClientMetadataUrl?: string;
}

/**
 * The MCP servers of `mcp.json` (or `--mcp-config FILE`), each a plugin `mcp-NAME`; nothing runs when
 * none is configured. The file is followed: edits apply without a restart, between turns.
 */
export const mcpClientPlugin: HostPluginManifest<McpClientOptions> = {
  prepare(options) {
    const config = mcpConfigOf({ dataDir: options.dataDir, file: options.mcpConfigFile });
    // The file is followed: servers added, changed or removed while the app runs apply between turns.
    const follow = {
      file: options.mcpConfigFile ?? path.join(options.dataDir, MCP_CONFIG_FILE_NAME),
      required: options.mcpConfigFile !== undefined,
    };
    return async ({ db, settings, plugins, standingApprovals, askPerson, log, version, whenNoTurnRuns, secrets }) => {
      // The MCP SDK is loaded only when a server is configured: a plain run pays nothing for it.
      const { McpClients } = await import('./mcp-clients.ts');
      return McpClients.create({
        config,
        follow,
        registry: plugins,
        ...(whenNoTurnRuns ? { whenNoTurnRuns } : {}),
        environment: options.mcpEnvironment ?? process.env,
        trust: new McpTrustStore({ db }),
        standingApprovals,
        maxResultBytes: () => settingValue(settings(), 'mcpMaxResultBytes'),
        reservedNames: () => otherPluginsToolNames(plugins),
        isEnabled: (name) => plugins.all().some(({ plugin, enabled }) => plugin.name === name && enabled),
        log,
        version,
        startTimeoutMs: settingValue(settings(), 'mcpStartTimeoutMs'),
        // A server's question goes to the person's window or browser; the run's own front end, when it gives one, instead.
        elicitation: options.mcpElicitation ?? askPerson,
        oauth: {
          dataDir: options.dataDir,
          // Tokens in the keychain where there is one (the desktop app), as API keys are.
          ...(secrets ? { secrets } : {}),
          ...(options.mcpSignIn ? { frontEnd: options.mcpSignIn } : {}),
          ...(options.mcpClientMetadataUrl !== undefined ? { clientMetadataUrl: options.mcpClientMetadataUrl } : {}),
        },
      });
    };
  },
};

/** The tool names of every enabled plugin that is not an MCP server's, with their plugin. */
function otherPluginsToolNames(plugins: PluginRegistry): Map<string, string> {
  const names = new Map<string, string>();
  for (const plugin of plugins.enabledPlugins()) {
    if (plugin.name.startsWith('mcp-')) continue;
    for (const tool of plugin.tools()) names.set(tool.name, plugin.name);
  }
  return names;
}
