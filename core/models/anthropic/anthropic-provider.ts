import { z } from 'zod';
import { endpointUrl } from '../http/endpoint-url.ts';
import { parseModelChunk } from '../http/parse-model-chunk.ts';
import { withName } from '../model-info.ts';
import type { ProviderManifest } from '../provider-manifest.ts';
import { anthropicServer } from './anthropic-server.ts';
import { createAnthropicAdapter } from './create-anthropic-adapter.ts';

const listSchema = z.object({ data: z.array(z.object({ id: z.string(), display_name: z.string().nullish() })) });

/** Anthropic's Messages API. */
export const anthropicProvider = {
  ...anthropicServer,
  displayName: 'Anthropic',
  placeholders: {
    baseUrl: anthropicServer.defaultBaseUrl,
    model: 'e.g. claude-sonnet-4-5',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
  },
  docsSection: 'docs/providers.md, "Servers" (Anthropic)',
  createAdapter: createAnthropicAdapter,
  listModels: {
    url: (baseUrl: string) => endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/models' }),
    parse: (text: string) =>
      parseModelChunk({ provider: anthropicServer.id, text, schema: listSchema }).data.map((model) =>
        withName(model.id, model.display_name),
      ),
  },
  // Anthropic's model pages.
  documentedWindows: { 'claude-': 200_000, 'claude-2': 100_000, 'claude-instant': 100_000 },
} satisfies ProviderManifest;
