// Types for cli-help-snapshot.mjs (plain JavaScript: the fast `home-agent` entry runs it before any TypeScript loader).
/** The snapshot's file name inside a build's folder. */
export declare const HELP_SNAPSHOT_FILE: string;
/** What the CLI printed for one command line, and its exit status. */
export interface HelpAnswer {
  status: number;
  stdout: string;
  stderr: string;
}
/** The command lines whose output a snapshot keeps: the overview, the version, each command's help. */
export declare function helpCommandLines(commandNames: readonly string[]): string[][];
/** Runs the CLI `entry` in this process on every help command line and writes the answers to `file`. */
export declare function writeHelpSnapshot(options: { entry: string; file: string }): Promise<void>;
/** The kept answer for `argv`, or undefined when it is not a help command line or nothing was kept. Never throws. */
export declare function answerFromHelpSnapshot(file: string, argv: readonly string[]): HelpAnswer | undefined;
