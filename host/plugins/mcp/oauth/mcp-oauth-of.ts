import { expandVariables } from '../expand-variables.ts';
import type { McpServerConfig } from '../mcp-config.ts';
import type { SecretStore } from '../../../secrets/secret-store.ts';
import { oauthFileOf } from './oauth-file.ts';
import { oauthFileStore } from './oauth-store.ts';
import { keychainOAuthStore } from './keychain-oauth-store.ts';
import { McpOAuth, type McpOAuthConfig, type McpSignInFrontEnd } from './mcp-oauth.ts';

/** What the host says of OAuth sign-in for its MCP servers. */
export interface McpOAuthOptions {
  /** The data folder: without a keychain, each server's tokens go to its owner-only `mcp-oauth-NAME.json` there. */
  dataDir: string;
  /** The OS keychain's store (the desktop app): the tokens are kept there, encrypted, while it can encrypt. */
  secrets?: SecretStore;
  /** A client ID metadata document's URL (https), used where an authorization server supports them. */
  clientMetadataUrl?: string;
  /** What opens a sign-in page for the person, if anything does. */
  frontEnd?: McpSignInFrontEnd;
}

/** How the person signs in to a server's plugin from the terminal. */
export function signInCommandOf(pluginName: string): string {
  return `\`home-agent plugins login ${pluginName}\``;
}

/**
 * The sign-in of one Streamable HTTP server of mcp.json, with its pre-registered client's secret read
 * from its `${VAR}`; throws naming the variable when it is not set.
 */
export function mcpOAuthOf(
  options: McpOAuthOptions & { config: McpServerConfig; environment: Readonly<Record<string, string | undefined>> },
): McpOAuth {
  const { transport } = options.config;
  if (transport.kind !== 'http') throw new Error('only a Streamable HTTP server signs in with OAuth');
  const wanted = transport.oauth ?? {};
  let clientSecret: string | undefined;
  if (wanted.clientSecret !== undefined) {
    // The secret is a `${VAR}` (mcp.json's schema allows nothing else), read as a header's value is.
    const expanded = expandVariables(
      { kind: 'http', url: transport.url, headers: { clientSecret: wanted.clientSecret } },
      options.environment,
    );
    if (!expanded.ok || expanded.transport.kind !== 'http')
      throw new Error(expanded.ok ? 'unreadable' : expanded.problem);
    clientSecret = expanded.transport.headers.clientSecret;
  }
  const config: McpOAuthConfig = {
    ...(wanted.clientId !== undefined ? { clientId: wanted.clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(wanted.scopes !== undefined ? { scopes: wanted.scopes } : {}),
  };
  const file = oauthFileOf(options.dataDir, options.config.name);
  const signInCommand = signInCommandOf(options.config.pluginName);
  return new McpOAuth({
    plugin: options.config.pluginName,
    serverUrl: transport.url,
    store:
      options.secrets?.isAvailable() === true
        ? keychainOAuthStore({ secrets: options.secrets, server: options.config.name, file, signInCommand })
        : oauthFileStore(file, signInCommand),
    config,
    signInCommand,
    ...(options.clientMetadataUrl !== undefined ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    ...(options.frontEnd ? { frontEnd: options.frontEnd } : {}),
  });
}
