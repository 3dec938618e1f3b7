// Runs one `home-agent` command line in this process: the CLI compiled to plain JavaScript (dist/cli,
// built by `npm ci`), built again first when its source changed since (a development checkout), and
// saying so; from its TypeScript source through tsx when it cannot be built (no esbuild: installed
// without dev dependencies). A help command line is answered from the build's help snapshot, without
// loading the CLI. The `home-agent` command (bin/home-agent.mjs) and `npm start` run it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCli, CLI_ENTRY, freshCliBuild } from './cli-build.mjs';
import { answerFromHelpSnapshot } from './cli-help-snapshot.mjs';

async function compiledEntry(root) {
  const fresh = freshCliBuild(root);
  if (fresh.entry) return fresh;
  process.stderr.write(`home-agent: ${fresh.stale}: building it (once, about a second)…\n`);
  try {
    return { entry: await buildCli(root) };
  } catch (error) {
    process.stderr.write(
      `home-agent: could not build the CLI (${error?.message ?? error}); running it from its TypeScript source, which starts slower.\n`,
    );
    return { entry: undefined };
  }
}

/**
 * What the CLI does with a failed write (host/front/cli/watch-output.ts), for an answer it did not
 * load the CLI for: a reader that went away (`home-agent --help | head -1`) ends it quietly with 0.
 */
function watchOutput() {
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED')
      process.stderr.write(`home-agent: cannot write the output: ${error.message}\n`);
    else process.exitCode = 0;
  });
  process.stderr.on('error', () => {
    // Nobody reads our messages any more; the exit status still tells.
  });
}

/** Runs `home-agent ARGV` of the checkout at `root` on this process's streams; resolves with its exit status. */
export async function runHomeAgent(root, argv) {
  const { entry, helpSnapshot } = await compiledEntry(root);
  const snapshotted = helpSnapshot === undefined ? undefined : answerFromHelpSnapshot(helpSnapshot, argv);
  if (snapshotted) {
    watchOutput();
    process.stdout.write(snapshotted.stdout);
    process.stderr.write(snapshotted.stderr);
    return snapshotted.status;
  }
  if (entry === undefined) (await import('tsx/esm/api')).register();
  const { main } = await import(pathToFileURL(entry ?? path.join(root, CLI_ENTRY)).href);
  return main(argv);
}
