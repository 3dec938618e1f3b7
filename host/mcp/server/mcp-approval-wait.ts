import type { ApprovalWait } from '../../approvals/person-approval-gate.ts';
import { settingValue, type Settings } from '../../contract/settings-table.ts';

/** The ToolAPI caller of every call an MCP client makes (the gates see it; the approval gate waits for it as below). */
export const MCP_CALLER = 'mcp';

/**
 * How a call from an MCP client waits for a person: `mcpApprovalWaitMs` (nobody may be at the
 * window), then a refusal that says it did not run and how to allow it — never run unasked.
 */
export function mcpApprovalWait(settings: Settings): ApprovalWait {
  return {
    waitMs: settingValue(settings, 'mcpApprovalWaitMs'),
    refusal: ({ toolName, deviceId, waitMs }) => {
      const what = deviceId === undefined ? toolName : `${toolName} on ${deviceId}`;
      return {
        approved: false,
        detail: `Nobody answered within ${formatSeconds(waitMs)} whether ${what} may run, so it did not run: it needs a person's approval.`,
        hint: `Ask the person to open Home Agent on this data folder (the app, or home-agent serve) and answer the question when you call it again; "Always allow" there lets ${what} run without asking from then on. The setting mcpApprovalWaitMs (now ${waitMs} ms) is how long a call waits.`,
      };
    },
  };
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
