import { OUTPUT_SEND_PREFIX } from '../../tools/output-send-prefix.ts';

/**
 * The built-in plugin that owns a tool name, counting names it may offer later (the channels
 * plugin owns every `output_send__<channel>`: a display plugged in tomorrow gets one). Undefined
 * when no built-in can ever offer it. A device's tools are `<kind>__<action>`, so only names of
 * that shape matter to devices; the other built-in names have no `__` and never collide.
 */
export function builtinToolOwner(name: string): string | undefined {
  return name.startsWith(OUTPUT_SEND_PREFIX) ? 'channels' : undefined;
}
