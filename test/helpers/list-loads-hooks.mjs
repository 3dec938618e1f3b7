// ESM loader hooks that name every module a process loads, one `loaded <url>` line on stderr each
// (test/helpers/run-bin-listing-loads.ts). Plain JavaScript: Node loads hooks before any TypeScript loader.
export async function load(url, context, next) {
  process._rawDebug(`loaded ${url}`);
  return next(url, context);
}
