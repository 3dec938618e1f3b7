import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonFlagOptions, readCommonFlags } from '../common-flags.ts';
import { bootHost } from '../../app/boot-host.ts';
import { stderrLog, UsageError, type CliIo } from '../cli-io.ts';
import { startWebServer } from '../../web/web-server.ts';
import { isLoopbackName } from '../../web/host-allowlist.ts';
import type { CommandHelp } from '../command-help.ts';
import { DEVICE_AND_DATA_FLAG_HELP, SETTING_FLAG_HELP } from '../common-flag-help.ts';
import { MIN_TOKEN_LENGTH, readOrCreateToken, readToken, WEB_TOKEN } from '../../web/token-file.ts';
import { resolveDataDir } from '../../config/data-dir.ts';
import { McpHttpEndpoint } from '../../mcp/server/mcp-http-endpoint.ts';
import { MCP_TOKEN } from '../../mcp/server/mcp-token.ts';
import { withMcpAccess } from '../../mcp/server/with-mcp-access.ts';
import { HOME_AGENT_VERSION } from '../../app/version.ts';

export const SERVE_HELP: CommandHelp = {
  name: 'serve',
  summary: 'serve the app to browsers on this machine or the home network',
  usage: ['serve [--port P] [--host ADDRESS] [--token T] [--mcp] [options]'],
  description: [
    'Runs the app for browsers: it prints "Home Agent is serving at http://HOST:PORT/#token=TOKEN" and',
    'serves until stopped (Ctrl+C). Every request needs the token; it binds 127.0.0.1 unless --host says',
    'otherwise, and a non-loopback address needs a token. Settings changed in the page apply to the next',
    'turn; flags given here win over them for this run. With --mcp it also serves the home’s tools to MCP',
    'clients at /mcp (Streamable HTTP) and prints "MCP clients: http://HOST:PORT/mcp with the header',
    'Authorization: Bearer CREDENTIAL": MCP clients have a credential of their own (home-agent token show',
    '--mcp), which opens /mcp and nothing else; the web token does not open /mcp (see docs/mcp.md).',
  ].join('\n'),
  options: [
    { flag: '--port P', text: 'The port (default 8123; a free one when 8123 is taken and --port is not given).' },
    { flag: '--host ADDRESS', text: 'The address to listen on (default 127.0.0.1; 0.0.0.0 for the home network).' },
    {
      flag: '--token T',
      text: 'The token browsers must present, 16 characters or more (default: $HOME_AGENT_TOKEN, else the one kept in the data folder, made on first use on loopback, so the address survives restarts; home-agent token shows it, home-agent token rotate replaces it).',
    },
    {
      flag: '--allowed-host NAME',
      text: 'Also accept requests addressed to NAME (a name the server is reached by; repeatable).',
    },
    { flag: '--static DIR', text: 'Serve the page from DIR instead of the built dist/renderer.' },
    {
      flag: '--mcp',
      text: 'Also serve the tools to MCP clients at /mcp (Streamable HTTP; header Authorization: Bearer with the MCP credential, which home-agent token show --mcp prints).',
    },
    ...SETTING_FLAG_HELP,
    ...DEVICE_AND_DATA_FLAG_HELP,
  ],
  examples: [
    { command: 'home-agent serve --sim', text: 'The app with simulated devices; open the address it prints.' },
    {
      command: 'home-agent serve --sim --mcp',
      text: 'The same, and MCP clients reach the tools at the /mcp address it prints.',
    },
    {
      command: 'home-agent serve --host 0.0.0.0 --device /dev/ttyUSB0',
      text: 'On a home server: reachable from the network, with the device on /dev/ttyUSB0.',
    },
  ],
};

/**
 * The token to serve with: `--token`, else `$HOME_AGENT_TOKEN`, else the one kept in the data folder
 * (so the printed address, a bookmark and open tabs survive a restart; made on first use, on a
 * loopback address only). A given token under 16 characters, or a non-loopback bind with none given
 * or stored, is a UsageError.
 */
function chooseToken(options: { flag: string | undefined; bindHost: string; dataDir: string }): string {
  const fromEnvironment = process.env.HOME_AGENT_TOKEN || undefined;
  const given = options.flag ?? fromEnvironment;
  const source = options.flag !== undefined ? '--token' : 'HOME_AGENT_TOKEN';
  if (given !== undefined && given.length < MIN_TOKEN_LENGTH)
    throw new UsageError(
      `${source} must be at least ${MIN_TOKEN_LENGTH} characters (got ${given.length}): a short token can be guessed. Generate one, e.g. --token "$(openssl rand -base64 24)"`,
    );
  if (given !== undefined) return given;
  if (isLoopbackName(options.bindHost)) return readOrCreateToken(options.dataDir, WEB_TOKEN);
  const stored = readToken(options.dataDir, WEB_TOKEN);
  if (stored !== undefined) return stored;
  throw new UsageError(
    `refusing to serve on ${options.bindHost} without a token: anyone on the network could control the home. Pass --token (at least ${MIN_TOKEN_LENGTH} characters, e.g. --token "$(openssl rand -base64 24)"), set HOME_AGENT_TOKEN, or make one with \`home-agent token rotate\`; or bind 127.0.0.1.`,
  );
}

const DEFAULT_STATIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/renderer');

/**
 * `home-agent serve`: the web app for a home server. Prints
 * `Home Agent is serving at http://HOST:PORT/#token=TOKEN` and runs until the signal stops it.
 */
export async function runServeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...commonFlagOptions,
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      static: { type: 'string' },
      mcp: { type: 'boolean' },
    },
    strict: true,
  });
  const port = values.port === undefined ? 8123 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0–65535, got '${values.port}'`);
  const flags = readCommonFlags(values);
  const log = stderrLog(io);
  // Checked before anything starts: a refused command line opens no database and no port.
  const dataDir = resolveDataDir(flags.dataDir);
  const token = chooseToken({ flag: values.token, bindHost: values.host ?? '127.0.0.1', dataDir });
  const mcpToken = values.mcp ? readOrCreateToken(dataDir, MCP_TOKEN) : undefined;
  const allowedHosts = values['allowed-host'] ?? [];
  const host = await bootHost({ flags, transport: 'web', log, signal: io.signal });
  const mcp = values.mcp ? new McpHttpEndpoint(host, { version: HOME_AGENT_VERSION, log, dataDir }) : undefined;
  let server;
  const start = (listenPort: number) =>
    startWebServer({
      handlers: mcp ? withMcpAccess(host.handlers, mcp) : host.handlers,
      bus: host.events,
      notices: host.notices,
      staticDir: values.static ?? DEFAULT_STATIC_DIR,
      ...(values.host ? { host: values.host } : {}),
      port: listenPort,
      token,
      allowedHosts,
      ...(mcp ? { mcp } : {}),
    });
  try {
    try {
      server = await start(port);
    } catch (error) {
      // The default port may be taken by another program; an explicit --port is never changed.
      if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
      if (values.port !== undefined) throw portInUse({ port, host: values.host ?? '127.0.0.1' });
      log(`port ${port} is in use: serving on a free port instead`);
      server = await start(0);
    }
  } catch (error) {
    await host.dispose();
    throw error;
  }
  if (host.modelNotice) log(host.modelNotice);
  io.stdout.write(`Home Agent is serving at ${server.url}#token=${token}\n`);
  if (mcp) {
    mcp.servedAt(`${server.url}mcp`);
    io.stdout.write(`MCP clients: ${server.url}mcp with the header Authorization: Bearer ${mcpToken}\n`);
  }
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  await host.dispose();
  return 0;
}

/** `--port P` taken by another program: what to do instead of Node's `listen EADDRINUSE …`. */
function portInUse(options: { port: number; host: string }): Error {
  return new Error(
    `port ${options.port} on ${options.host} is in use by another program (another home-agent serve or npm start, perhaps): stop it, or choose another port with --port (0 takes a free one), or leave --port out to use 8123 or a free one`,
  );
}
