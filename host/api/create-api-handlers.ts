import type { ApiHandlers } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';
import { conversationHandlers } from './conversation-handlers.ts';
import { modelHandlers } from './model-handlers.ts';
import { deviceHandlers } from './device-handlers.ts';
import { approvalHandlers } from './approval-handlers.ts';
import { approvalPinHandlers } from './approval-pin-handlers.ts';
import { elicitationHandlers } from './elicitation-handlers.ts';
import { pluginHandlers } from './plugin-handlers.ts';
import { secretHandlers } from './secret-handlers.ts';
import { settingsHandlers } from './settings-handlers.ts';

/** Binds each API method of the contract to the host's parts, one area of the API per file. */
export function createApiHandlers(parts: HostParts): ApiHandlers {
  return {
    'app/info': async () => {
      // The model the next turn will use, so the header is right as soon as the settings change.
      await parts.models.current().catch(() => undefined);
      const status = parts.models.status;
      return {
        version: parts.version,
        transport: parts.transport === 'electron' ? 'electron' : 'web',
        model: status
          ? {
              label: status.label,
              scripted: status.scripted,
              ok: status.ok,
              ...(status.notice !== undefined ? { notice: status.notice } : {}),
            }
          : { label: 'No model chosen yet', scripted: false },
        dataDir: parts.dataDir,
      };
    },
    ...conversationHandlers(parts),
    ...deviceHandlers(parts),
    ...modelHandlers(parts),
    ...approvalHandlers(parts),
    ...approvalPinHandlers(parts),
    ...elicitationHandlers(parts),
    ...pluginHandlers(parts),
    ...secretHandlers(parts),
    ...settingsHandlers(parts),
  };
}
