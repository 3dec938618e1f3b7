/**
 * Joins a base URL and an endpoint path. `versionPrefix` (e.g. `/v1`) is added unless the base
 * already ends with it; `onlyOnBareHost` adds it only when the base has no path at all (OpenAI-style
 * base URLs carry their version: `https://openrouter.ai/api/v1`).
 */
export function endpointUrl(options: {
  baseUrl: string;
  versionPrefix: string;
  path: string;
  onlyOnBareHost?: boolean;
}): string {
  const base = options.baseUrl.replace(/\/+$/, '');
  const url = new URL(base);
  const basePath = url.pathname.replace(/\/+$/, '');
  const hasVersion = basePath.endsWith(options.versionPrefix);
  const addVersion = !hasVersion && (!options.onlyOnBareHost || basePath === '');
  return `${base}${addVersion ? options.versionPrefix : ''}${options.path}`;
}
