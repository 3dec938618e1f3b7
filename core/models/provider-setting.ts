import type { z } from 'zod';

/**
 * One setting of a provider, in the shape of the host's settings table (devices/links/way-in-setting.ts
 * `SettingDeclaration`, which lives above the kernel): declared beside the provider's code, spread
 * into the table through the list of providers.
 */
export interface ProviderSetting<S extends z.ZodType = z.ZodType> {
  schema: S;
  label: string;
  input: 'integer' | 'text' | 'select';
  options?: readonly string[];
  help?: string;
  placeholder?: string;
  valueName?: string;
  /** The command-line flag, without the dashes. */
  flag: string;
  /** The environment variable the desktop app reads at start. */
  env: string;
  appliesAt: 'turn' | 'start';
  /** The value the code uses while the setting is unset. */
  default?: z.output<S>;
}

/** Declares a provider's setting with its default (keeps its schema's type, so the table infers each value's type). */
export function providerSetting<S extends z.ZodType>(
  spec: ProviderSetting<S> & { default: z.output<S> },
): ProviderSetting<S> & { default: z.output<S> } {
  return spec;
}
