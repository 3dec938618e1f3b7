// Compiles TypeScript entry points to plain ESM with esbuild: the CLI people start (dist/cli, built by
// `npm ci` and rebuilt when its source changes) and the entries tests start as processes. Plain
// JavaScript, so the fast `home-agent` entry can run it before any TypeScript loader.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Each module keeps its own `import.meta` (a bundle would give every module the chunk's). */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Compiles `entryPoints` (paths relative to `root`) into `outdir` (same relative paths, `.mjs`),
 * packages left to Node (so `outdir` must lie inside the repository, where Node finds
 * `node_modules`) and dynamic imports kept lazy (code splitting), so a process loads only what it
 * uses. Resolves with the source files compiled in, relative to `root`.
 */
export async function compileEntries({ root, entryPoints, outdir }) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    outbase: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [ownImportMeta],
    metafile: true,
    logLevel: 'warning',
  });
  return Object.keys(result.metafile.inputs);
}
