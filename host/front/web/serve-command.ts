import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonFlagOptions, readCommonFlags } from '../command-line/common-flags.ts';
import { startHost } from '../../app/start-host.ts';
import { stderrLog, UsageError, type CliIo } from '../command-line/cli-io.ts';
import { startWebServer } from './web-server.ts';
import { isLoopbackName } from './host-allowlist.ts';
import { MIN_TOKEN_LENGTH, readOrCreateToken, readToken, WEB_TOKEN } from '../../secrets/token-file.ts';
import { resolveDataDir } from '../../config/data-dir.ts';
import type { ServeAddOn } from './serve-add-on.ts';
import type { FlagValues } from '../../config/read-setting-values.ts';
import { claimHome } from '../../link/claim-home.ts';
import { explainHeld, holdWindowHome, type FrontEndDoors } from '../../link/hold-window-home.ts';

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

/** serve's own flags, besides the shared ones. */
const serveOptions = {
  ...commonFlagOptions,
  port: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  static: { type: 'string' },
} as const;

/**
 * `home-agent serve`: the web app for a home server. Prints
 * `Home Agent is serving at http://HOST:PORT/#token=TOKEN` and runs until the signal stops it.
 * `addOns` (other front ends' endpoints, given by the composition root) add their flags and endpoints.
 */
export async function runServeCommand(
  argv: string[],
  io: CliIo,
  addOns: readonly ServeAddOn[] = [],
  /** Other front ends' doors on the home's socket (the MCP session of `home-agent mcp` started beside it). */
  linkDoors: FrontEndDoors = {},
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    // The add-ons' flags are parsed too; each add-on reads its own from the values.
    options: { ...serveOptions, ...Object.assign({}, ...addOns.map((addOn) => addOn.options)) } as typeof serveOptions,
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
  const prepared = (await Promise.all(addOns.map((addOn) => addOn.prepare(values as FlagValues, dataDir)))).flatMap(
    (addOn) => addOn ?? [],
  );
  const allowedHosts = values['allowed-host'] ?? [];
  // One host per home: an `mcp` that hosts it hands it over; another window's is refused, naming it.
  await claimHome({ dataDir, command: 'home-agent serve', log }).catch(explainHeld(dataDir));
  const host = await startHost({ ...flags, transport: 'web', command: 'home-agent serve', log, signal: io.signal });
  const link = await holdWindowHome(host, { dataDir, command: 'home-agent serve', doors: linkDoors, log });
  const started = prepared.map((addOn) => addOn.start(host, { log, dataDir }));
  const handlers = started.reduce((extended, addOn) => addOn.handlers(extended), host.handlers);
  let server;
  const start = (listenPort: number) =>
    startWebServer({
      handlers,
      bus: host.events,
      notices: host.notices,
      staticDir: values.static ?? DEFAULT_STATIC_DIR,
      ...(values.host ? { host: values.host } : {}),
      port: listenPort,
      token,
      allowedHosts,
      endpoints: started.map((addOn) => addOn.endpoint),
      // A browser open on the home can show a plugin's question to the person.
      onClientOpened: () => host.elicitations.frontEndOpened(),
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
    await link.close();
    await host.dispose();
    throw error;
  }
  if (host.modelNotice) log(host.modelNotice);
  io.stdout.write(`Home Agent is serving at ${server.url}#token=${token}\n`);
  for (const addOn of started) io.stdout.write(`${addOn.served(server.url)}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  await link.close();
  await host.dispose();
  return 0;
}

/** `--port P` taken by another program: what to do instead of Node's `listen EADDRINUSE …`. */
function portInUse(options: { port: number; host: string }): Error {
  return new Error(
    `port ${options.port} on ${options.host} is in use by another program (another home-agent serve or npm start, perhaps): stop it, or choose another port with --port (0 takes a free one), or leave --port out to use 8123 or a free one`,
  );
}
