import type { McpConnection } from '../../../host/plugins/mcp/mcp-connection.ts';

/** Resolves with the server's stderr tail once it matches `pattern` (looked at whenever the server writes). */
export function stderrWhen(connection: McpConnection, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const look = (): boolean => {
      const tail = connection.stderrTail();
      if (!pattern.test(tail)) return false;
      resolve(tail);
      return true;
    };
    if (look()) return;
    const stop = connection.stderr.subscribe(() => look() && stop());
  });
}
