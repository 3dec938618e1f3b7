import { MODEL_PROVIDERS } from '../../core/models/provider-defaults.ts';
import { apiKeySecretName } from '../secrets/secret-store.ts';
import { SecretStoreError } from '../secrets/encrypted-file-secret-store.ts';
import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

/** API keys in the OS keychain: which providers have one, store, delete (a key never goes back out). */
export function secretHandlers(
  parts: HostParts,
): ApiHandlersOf<'secrets/status' | 'secrets/set-api-key' | 'secrets/delete-api-key'> {
  const { secrets } = parts;
  return {
    'secrets/status': () => ({
      available: secrets !== undefined,
      apiKeys: Object.fromEntries(
        MODEL_PROVIDERS.map((provider) => [provider, secrets?.has(apiKeySecretName(provider)) ?? false]),
      ),
    }),
    'secrets/set-api-key': (input) => {
      if (!secrets)
        throw new ApiError(
          400,
          'this front end keeps no keys: put the key in an environment variable on this machine and pass --api-key-env',
        );
      try {
        secrets.set(apiKeySecretName(input.provider), input.apiKey);
      } catch (error) {
        if (error instanceof SecretStoreError) throw new ApiError(400, error.message);
        throw error;
      }
      return { stored: true, appliesAt: 'next start' as const };
    },
    'secrets/delete-api-key': (input) => ({ deleted: secrets?.delete(apiKeySecretName(input.provider)) ?? false }),
  };
}
