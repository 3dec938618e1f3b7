import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonFlagOptions, readCommonFlags } from '../common-flags.ts';
import { bootHost } from '../../app/boot-host.ts';
import { UsageError, type CliIo } from '../cli-io.ts';
import { startWebServer } from '../../web/web-server.ts';
import { readOrCreateWebToken } from '../../web/token-file.ts';
import { resolveDataDir } from '../../config/data-dir.ts';

export const SERVE_USAGE = `home-agent serve [--port P] [--host 127.0.0.1] [--token T] [--data-dir DIR] [--sim] [--device PATH]...
  [--provider …] [--model M] [--base-url URL] [--api-key-env VAR] [--script FILE] [--static DIR]`;

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
      static: { type: 'string' },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  const port = values.port === undefined ? 8123 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0–65535, got '${values.port}'`);
  const flags = readCommonFlags(values);
  const log = (line: string): void => void io.stderr.write(`home-agent: ${line}\n`);
  // Kept in the data folder when none is given: the printed address, a bookmark and open tabs survive a restart.
  const token = values.token ?? (process.env.HOME_AGENT_TOKEN || readOrCreateWebToken(resolveDataDir(flags.dataDir)));
  const host = await bootHost({ flags, transport: 'web', log, signal: io.signal });
  let server;
  const start = (listenPort: number) =>
    startWebServer({
      handlers: host.handlers,
      bus: host.events,
      notices: host.notices,
      staticDir: values.static ?? DEFAULT_STATIC_DIR,
      ...(values.host ? { host: values.host } : {}),
      port: listenPort,
      token,
    });
  try {
    try {
      server = await start(port);
    } catch (error) {
      // The default port may be taken by another program; an explicit --port is never changed.
      if ((error as { code?: string }).code !== 'EADDRINUSE' || values.port !== undefined) throw error;
      log(`port ${port} is in use: serving on a free port instead`);
      server = await start(0);
    }
  } catch (error) {
    await host.dispose();
    throw error;
  }
  if (host.modelNotice) log(host.modelNotice);
  io.stdout.write(`Home Agent is serving at ${server.url}#token=${token}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  await host.dispose();
  return 0;
}
