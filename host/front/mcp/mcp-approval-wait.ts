import type { ApprovalWait } from '../../approvals/person-approval-gate.ts';
import { settingValue, type Settings } from '../../contract/settings-table.ts';

/** The ToolAPI caller of every call an MCP client makes (the gates see it; the approval gate waits for it as below). */
export const MCP_CALLER = 'mcp';

/**
 * The questions one MCP session keeps open for the person, at most `max`: its direct calls and the
 * calls inside sequences it runs alike, so a client cannot fill the person's windows with cards.
 */
export class SessionQuestions {
  private open = 0;

  constructor(readonly max: number) {}

  /** Takes a place for one question; false (nothing taken) when `max` are open. */
  take(): boolean {
    if (this.open >= this.max) return false;
    this.open += 1;
    return true;
  }

  /** Gives back a place taken by `take`, once its question ended. */
  release(): void {
    this.open = Math.max(0, this.open - 1);
  }
}

/**
 * How a call from an MCP client waits for a person: `mcpApprovalWaitMs` (nobody may be at the
 * window), then a refusal that says it did not run and how to allow it — never run unasked. With
 * the session's `questions`, a call past its bound is refused at once, without asking.
 */
export function mcpApprovalWait(settings: Settings, questions?: SessionQuestions): ApprovalWait {
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
    ...(questions
      ? {
          admit: ({ toolName }) =>
            questions.take()
              ? () => questions.release()
              : {
                  approved: false,
                  detail: `${toolName} was not asked about: this MCP client already has ${questions.max} questions waiting for the person, the most one session may. It did not run.`,
                  hint: 'Wait until the person has answered those, then call it again; run fewer calls that need approval at once (in a sequence too).',
                },
        }
      : {}),
  };
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
