/** One option of a command, as its help lists it: the flag with its value (`--port P`), and what it does. */
export interface OptionHelp {
  flag: string;
  text: string;
}

/** One example: the command line, and what it does. */
export interface ExampleHelp {
  command: string;
  text: string;
}

/**
 * What `home-agent <command> --help` prints, kept in the command's own module: a one-line
 * summary (also the overview's line), the usage lines, a description, the options and examples.
 */
export interface CommandHelp {
  name: string;
  summary: string;
  /** Usage lines without the leading `home-agent `. */
  usage: readonly string[];
  description: string;
  options: readonly OptionHelp[];
  examples: readonly ExampleHelp[];
}

/**
 * What another front end adds to a command's help (`serve --mcp`), composed by
 * host/front/front-ends.ts: the command's help places each part where it belongs.
 */
export interface HelpAddition {
  /** Added to the end of the summary. */
  summary?: string;
  /** A usage fragment (`[--mcp]`). */
  usage: string;
  /** Sentences that continue the description, with their own line breaks (starting with a space). */
  description: string;
  options: readonly OptionHelp[];
  examples: readonly ExampleHelp[];
}

const OPTION_COLUMN = 30;

/** Every command takes it; each help lists it last without saying so itself. */
const HELP_OPTION: OptionHelp = { flag: '-h, --help', text: 'Show this help.' };

/** A command's options as its help lists them: its own, then `-h, --help`. */
function listedOptions(help: CommandHelp): OptionHelp[] {
  return [...help.options, HELP_OPTION];
}

/** Pure: a command's full help text. */
export function formatHelp(help: CommandHelp): string {
  const options = listedOptions(help).map((option) =>
    // At least two spaces between a flag and its text, or the text starts on a line of its own.
    option.flag.length <= OPTION_COLUMN - 4
      ? `  ${option.flag.padEnd(OPTION_COLUMN - 2)}${option.text}`
      : `  ${option.flag}\n  ${' '.repeat(OPTION_COLUMN - 2)}${option.text}`,
  );
  const examples = help.examples.map((example) => `  ${example.command}\n      ${example.text}`);
  return [
    `home-agent ${help.name} — ${help.summary}`,
    '',
    'Usage:',
    ...help.usage.map((line) => `  home-agent ${line}`),
    '',
    help.description,
    '',
    'Options:',
    ...options,
    ...(examples.length > 0 ? ['', 'Examples:', ...examples] : []),
    '',
  ].join('\n');
}

/** Pure: the short usage printed after a usage error, pointing at the full help. */
export function formatUsage(help: CommandHelp): string {
  return [
    'Usage:',
    ...help.usage.map((line) => `  home-agent ${line}`),
    `Every option, with examples: home-agent ${help.name} --help`,
    '',
  ].join('\n');
}

/** Pure: the option names a help lists (`--port P` → `--port`, `-h, --help` → both). */
export function optionNames(help: CommandHelp): string[] {
  return listedOptions(help).flatMap((option) =>
    [...option.flag.matchAll(/(?:^|[\s,[])(--?[a-z][\w-]*)/g)].map((found) => found[1]!),
  );
}
