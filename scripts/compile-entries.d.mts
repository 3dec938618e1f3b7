// Types for compile-entries.mjs (plain JavaScript: the fast `home-agent` entry runs it before any TypeScript loader).
/** Compiles `entryPoints` into `outdir` with esbuild; resolves with the source files compiled in, relative to `root`. */
export declare function compileEntries(options: {
  root: string;
  entryPoints: readonly string[];
  outdir: string;
}): Promise<string[]>;
