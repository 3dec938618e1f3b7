import type { CallOutcome } from './call-outcome.ts';
import type { ToolMedia } from './tool-media.ts';
import type { ToolOutcome } from './tool-result.ts';

/** How one call ended: its structured outcome, what is known of its effect, media, output, approval wait. */
export interface ToolCallRun {
  outcome: ToolOutcome;
  callOutcome: CallOutcome;
  media: ToolMedia[];
  /** The text a channel tool put on its channel, when it succeeded in sending. */
  output?: string;
  /** How long the call waited for the person; absent when nobody was asked. */
  approvalMs?: number;
}
