import { MODEL_PROVIDERS } from '../../core/models/provider-defaults.ts';
import { WAY_IN_SECRETS } from '../contract/api-contract.ts';
import { apiKeySecretName, wayInSecretName, type SecretStore } from '../secrets/secret-store.ts';
import { SecretStoreError } from '../secrets/encrypted-file-secret-store.ts';
import { ApiError } from './api-error.ts';
import { isSettingKey, settingsTable } from '../contract/settings-table.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

/**
 * API keys and the ways in's secrets (a broker password) in the OS keychain: which are kept, store,
 * delete (a key or secret never goes back out).
 */
export function secretHandlers(
  parts: HostParts,
): ApiHandlersOf<
  | 'secrets/status'
  | 'secrets/set-api-key'
  | 'secrets/delete-api-key'
  | 'secrets/set-way-in-secret'
  | 'secrets/delete-way-in-secret'
> {
  const { secrets } = parts;
  return {
    'secrets/status': () => ({
      available: secrets !== undefined,
      apiKeys: Object.fromEntries(
        MODEL_PROVIDERS.map((provider) => [provider, secrets?.has(apiKeySecretName(provider)) ?? false]),
      ),
      wayInSecrets: Object.fromEntries(
        Object.keys(WAY_IN_SECRETS).map((name) => [name, secrets?.has(wayInSecretName(name)) ?? false]),
      ),
    }),
    'secrets/set-api-key': (input) => {
      if (!secrets)
        throw new ApiError(
          400,
          'this front end keeps no keys: put the key in an environment variable on this machine and pass --api-key-env',
        );
      keep(secrets, apiKeySecretName(input.provider), input.apiKey);
      return { stored: true, appliesAt: 'next start' as const };
    },
    'secrets/delete-api-key': (input) => ({ deleted: secrets?.delete(apiKeySecretName(input.provider)) ?? false }),
    'secrets/set-way-in-secret': (input) => {
      const declared = WAY_IN_SECRETS[input.name];
      if (!secrets || !declared)
        throw new ApiError(
          400,
          `this front end keeps no secrets: put the ${declared?.label.toLowerCase() ?? 'secret'} in an environment variable on this machine and name it in ${variableSettingOf(input.name)}`,
        );
      keep(secrets, wayInSecretName(input.name), input.value);
      return { stored: true, appliesAt: 'next start' as const };
    },
    'secrets/delete-way-in-secret': (input) => ({ deleted: secrets?.delete(wayInSecretName(input.name)) ?? false }),
  };
}

/** Stores a secret; a keychain that cannot keep it safely is the person's problem to solve, said as such. */
function keep(secrets: SecretStore, name: string, value: string): void {
  try {
    secrets.set(name, value);
  } catch (error) {
    if (error instanceof SecretStoreError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** The setting (its label and flag) naming the environment variable a way in's secret is read from instead. */
function variableSettingOf(name: string): string {
  const key = WAY_IN_SECRETS[name]?.settingKey;
  const spec = key !== undefined && isSettingKey(key) ? settingsTable[key] : undefined;
  return spec ? `${spec.label} (--${spec.flag} VAR)` : 'its setting';
}
