import { parseArgs } from 'node:util';
import { UsageError, type CliIo } from '../../command-line/cli-io.ts';
import { resolveDataDir } from '../../../config/data-dir.ts';
import { mcpConfigOf } from '../../../plugins/mcp/mcp-config.ts';
import { mcpOAuthOf } from '../../../plugins/mcp/oauth/mcp-oauth-of.ts';
import { forgetKeychainSignIn } from '../../../plugins/mcp/oauth/keychain-oauth-store.ts';
import { homeHostApi, signInThroughHost, signOutThroughHost } from './plugins-through-host.ts';

/** How long `plugins login` waits for the browser to come back. */
const SIGN_IN_WAIT_MS = 10 * 60_000;

/**
 * `home-agent plugins login|logout mcp-NAME`: the MCP-client plugin's OAuth 2.1 sign-in from the
 * terminal. While a host runs the home (the window, `serve`), that host signs in and uses the server
 * at once. Otherwise login prints the authorization address, waits for the browser's return on a
 * loopback listener (127.0.0.1) and keeps the tokens in the server's owner-only file (a window with a
 * keychain moves them there when it starts); logout removes them.
 */
export async function runPluginsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      'mcp-config': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, plugin, ...rest] = positionals;
  if (action !== 'login' && action !== 'logout')
    throw new UsageError(`give login or logout, then the plugin (mcp-NAME)${action ? `; got '${action}'` : ''}`);
  if (plugin === undefined || rest.length > 0) throw new UsageError(`give one plugin to ${action}: mcp-NAME`);
  const dataDir = resolveDataDir(values['data-dir']);
  const config = mcpConfigOf({ dataDir, file: values['mcp-config'] });
  const server = config.servers.find((each) => each.pluginName === plugin);
  if (server === undefined || server.transport.kind !== 'http')
    throw new UsageError(
      `${plugin} is not a Streamable HTTP server of ${config.file ?? 'mcp.json'}: only those sign in (the servers there: ${
        config.servers.map((each) => each.pluginName).join(', ') || 'none'
      })`,
    );
  // A host runs the home: it signs in, so the tokens are kept where it keeps them (the window's
  // keychain) and it uses the server at once; the terminal keeps none of its own.
  const running = await homeHostApi(dataDir);
  if (running !== undefined) {
    try {
      return action === 'login'
        ? await signInThroughHost({ ...running, plugin, waitMs: SIGN_IN_WAIT_MS, io })
        : await signOutThroughHost({ ...running, plugin, io });
    } catch (error) {
      io.stderr.write(
        `home-agent plugins: ${plugin}: could not ${action === 'login' ? 'sign in' : 'sign out'}: ${(error as Error).message}\n`,
      );
      return 1;
    } finally {
      running.api.close();
    }
  }
  if (action === 'logout') {
    const oauth = mcpOAuthOf({ config: server, environment: process.env, dataDir });
    // The desktop app's keychain keeps its sign-in: it goes too (removing needs no keychain).
    const removed = [oauth.signOut(), forgetKeychainSignIn(dataDir, server.name)].includes(true);
    io.stdout.write(
      removed
        ? `Signed out of ${plugin}: its tokens were removed.\n`
        : `${plugin} was not signed in: nothing to remove.\n`,
    );
    return 0;
  }
  const oauth = mcpOAuthOf({ config: server, environment: process.env, dataDir });
  try {
    const signedIn = new Promise<void>((resolve) => oauth.onSignedIn(resolve));
    const url = await oauth.begin();
    if (url === '') {
      io.stdout.write(`${plugin} is signed in already.\n`);
      return 0;
    }
    io.stdout.write(
      `Open this address in a browser to sign in to ${plugin}:\n\n  ${url}\n\nWaiting for the browser…\n`,
    );
    const outcome = await Promise.race([
      signedIn.then(() => 'signed-in' as const),
      new Promise<'timeout'>((resolve) => setTimeout(resolve, SIGN_IN_WAIT_MS, 'timeout').unref()),
      new Promise<'stopped'>((resolve) =>
        io.signal.addEventListener('abort', () => resolve('stopped'), { once: true }),
      ),
    ]);
    if (outcome !== 'signed-in') {
      io.stderr.write(
        `home-agent plugins: ${outcome === 'timeout' ? 'the browser did not come back within 10 minutes' : 'stopped'}: not signed in\n`,
      );
      return 1;
    }
    io.stdout.write(`Signed in to ${plugin}. Its tokens are kept in ${oauth.keptIn}.\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`home-agent plugins: ${plugin}: could not sign in: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await oauth.stopListening();
  }
}
