import type { Settings } from '../contract/settings-table.ts';

/**
 * Which model a run uses: the model settings (flags over stored values over defaults) and, for
 * the scripted provider, the script file (a flag only). The API key itself is never here: only
 * the name of the environment variable that holds it.
 */
export type ModelChoice = Pick<Settings, 'provider' | 'model' | 'baseUrl' | 'apiKeyEnv'> & { scriptFile?: string };
