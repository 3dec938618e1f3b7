// Types for cli-build.mjs (plain JavaScript: the fast `home-agent` entry runs it before any TypeScript loader).
/** The CLI's source entry, relative to the repository. */
export declare const CLI_ENTRY: string;
/** The compiled CLI entry and its help snapshot when it is up to date with its source, else why not. Never throws. */
export declare function freshCliBuild(
  root: string,
): { entry: string; helpSnapshot: string; stale?: undefined } | { stale: string; entry?: undefined };
/** Builds the CLI into dist/cli and records it; resolves with the compiled entry. */
export declare function buildCli(root: string): Promise<string>;
