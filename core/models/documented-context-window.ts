import type { ProviderManifest } from './provider-manifest.ts';
import { PROVIDER_MANIFESTS } from './provider-manifests.ts';

/** Every provider's documented windows in one table (a model may be reached through another's server, e.g. OpenRouter). */
const DOCUMENTED: Readonly<Record<string, number>> = Object.assign(
  {},
  ...Object.values<ProviderManifest>(PROVIDER_MANIFESTS).map((manifest) => manifest.documentedWindows ?? {}),
) as Record<string, number>;

/**
 * The context window the hosted providers document for a model, in tokens, by model-name prefix
 * (the longest prefix that matches wins; a dated or `-latest` suffix still matches), or undefined for
 * a name the table does not know. Used when no server says the window; a 400 that states another
 * one is learned over it. A routing prefix (`vendor/model` on OpenRouter) and `models/` are ignored.
 */
export function documentedContextWindow(model: string): number | undefined {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  let best: string | undefined;
  for (const prefix of Object.keys(DOCUMENTED))
    if (name.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  return best === undefined ? undefined : DOCUMENTED[best];
}
