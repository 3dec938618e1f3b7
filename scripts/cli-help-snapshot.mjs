// The help of a CLI build, answered without loading the CLI: `home-agent --help` (and each command's
// `--help`) would otherwise load every command's help module and the settings tables they read
// their defaults from, zod and all (about 170 modules). Help is pure text, so the build runs the
// real command line once per help command line and keeps what it printed; the fast entry replays
// it. Plain JavaScript: it runs before any TypeScript loader.
import { readFileSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

/** The snapshot's file name, beside the compiled entry's build folder's other files. */
export const HELP_SNAPSHOT_FILE = 'help.json';

/** A command line longer than this is never a help command line (`help devices`, `devices --help`). */
const MAX_HELP_WORDS = 2;
/** Every help command line but the bare one holds one of these (helpCommandLines). */
const HELP_WORDS = new Set(['--help', '-h', 'help', '--version']);

/** The command lines whose output is kept: the overview, the version, and each command's help. */
export function helpCommandLines(commandNames) {
  return [
    [],
    ['--help'],
    ['-h'],
    ['help'],
    ['--version'],
    ...commandNames.flatMap((name) => [
      ['help', name],
      [name, '--help'],
      [name, '-h'],
    ]),
  ];
}

function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * Runs the compiled CLI `entry` (its `main` and `COMMANDS`) in this process on every help command
 * line and writes what each printed, and its status, to `file`. Rejects when the entry cannot load.
 */
export async function writeHelpSnapshot({ entry, file }) {
  const { main, COMMANDS } = await import(pathToFileURL(entry).href);
  const answers = {};
  for (const argv of helpCommandLines(Object.keys(COMMANDS))) {
    const stdout = collector();
    const stderr = collector();
    const status = await main(argv, { stdout: stdout.stream, stderr: stderr.stream });
    answers[JSON.stringify(argv)] = { status, stdout: stdout.text(), stderr: stderr.text() };
  }
  writeFileSync(file, JSON.stringify({ answers }));
}

/**
 * What the CLI printed for `argv` when its build was made (`{ status, stdout, stderr }`), or
 * undefined when `argv` is not a help command line or the build kept no snapshot. Never throws.
 */
export function answerFromHelpSnapshot(file, argv) {
  // Any other command line (`devices list`) does not read the snapshot at all.
  if (argv.length > MAX_HELP_WORDS || (argv.length > 0 && !argv.some((word) => HELP_WORDS.has(word)))) return undefined;
  let snapshot;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // a build made before snapshots, or unreadable: the CLI answers itself
  }
  const answer = snapshot?.answers?.[JSON.stringify(argv)];
  if (typeof answer?.status !== 'number' || typeof answer.stdout !== 'string' || typeof answer.stderr !== 'string')
    return undefined;
  return answer;
}
