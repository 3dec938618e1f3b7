// Pure (zod only): the renderer bundles the settings table, which spreads the plugins' rows in.
import type { z } from 'zod';
import type { SettingDeclaration } from '../../devices/links/way-in-setting.ts';

/** Declares a plugin's setting whose unset value the code reads from its row (`settingValue`), and nowhere else. */
export function pluginSetting<S extends z.ZodType>(
  spec: SettingDeclaration<S> & { default: z.output<S> },
): SettingDeclaration<S> & { default: z.output<S> } {
  return spec;
}
