import type { ApiHandlers } from '../../api/api-handlers.ts';
import type { McpAccess } from './mcp-http-endpoint.ts';

/**
 * The API handlers with `app/info` also saying where MCP clients reach this server and with which
 * credential, so the person's front end can show them (the API itself needs the web token).
 */
export function withMcpAccess(handlers: ApiHandlers, endpoint: { access(): McpAccess | undefined }): ApiHandlers {
  return {
    ...handlers,
    'app/info': async (input) => {
      const info = await handlers['app/info'](input);
      const mcp = endpoint.access();
      return mcp === undefined ? info : { ...info, mcp };
    },
  };
}
