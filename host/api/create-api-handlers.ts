import type { ApiHandlers } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';
import { conversationHandlers } from './conversation-handlers.ts';
import { deviceHandlers } from './device-handlers.ts';
import { approvalHandlers } from './approval-handlers.ts';
import { pluginHandlers } from './plugin-handlers.ts';
import { secretHandlers } from './secret-handlers.ts';
import { settingsHandlers } from './settings-handlers.ts';

/** Binds each API method of the contract to the host's parts, one area of the API per file. */
export function createApiHandlers(parts: HostParts): ApiHandlers {
  return {
    'app/info': () => ({
      version: parts.version,
      transport: parts.transport === 'electron' ? 'electron' : 'web',
      model: {
        label: parts.model.label,
        scripted: parts.model.scripted === true,
        ...(parts.modelNotice ? { notice: parts.modelNotice } : {}),
      },
      dataDir: parts.dataDir,
    }),
    ...conversationHandlers(parts),
    ...deviceHandlers(parts),
    ...approvalHandlers(parts),
    ...pluginHandlers(parts),
    ...secretHandlers(parts),
    ...settingsHandlers(parts),
  };
}
