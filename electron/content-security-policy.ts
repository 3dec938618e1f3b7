/** The renderer's Content Security Policy in Electron: our files only, no remote code. */
export const ELECTRON_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The policy for the window: strict for the packaged app; while developing against the Vite dev
 * server, React Fast Refresh's inline script and its socket are allowed (never in a build).
 */
export function electronCsp(options: { devServer: boolean }): string {
  if (!options.devServer) return ELECTRON_CSP;
  return ELECTRON_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "connect-src 'self'",
    "connect-src 'self' ws:",
  );
}
