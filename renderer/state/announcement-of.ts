import { describeCallOutcome, type HostAgentEvent } from '../../host/contract/api-contract.ts';

/** One sentence for a screen reader; `urgent` ones interrupt (questions for the person, errors). */
export interface Announcement {
  text: string;
  urgent: boolean;
}

/**
 * Pure: what a screen reader should hear when a live event arrives, or nothing. Only the open
 * conversation speaks, except a question for the person, which is heard from anywhere. Text is
 * announced once its message is complete, never delta by delta; a batch when it ends (its start
 * follows the reply that announced it), and a call only when it did not succeed: each sentence
 * costs the accessibility tree a frame, so only news is said.
 */
export function announcementOf(event: HostAgentEvent, openConversationId: string | null): Announcement | undefined {
  if (event.type === 'approval/request')
    return { text: `${event.name} needs your approval: Allow or Deny it in the batch panel.`, urgent: true };
  if (event.conversationId !== openConversationId) return undefined;
  switch (event.type) {
    case 'message/assistant':
      return event.text.trim() ? { text: `Home Agent: ${event.text}`, urgent: false } : undefined;
    case 'tool/end': {
      if (event.ok) return undefined;
      const words = describeCallOutcome(event.outcome, event.ok, event.reaches);
      return { text: `${event.name} ${words.label}: ${words.meaning}.`, urgent: false };
    }
    case 'batch/end':
      return { text: `${event.executed} ${event.executed === 1 ? 'call' : 'calls'} done.`, urgent: false };
    case 'device/state':
      return event.error
        ? { text: `${event.deviceId} could not be read after the stop; it may have acted.`, urgent: false }
        : { text: `${event.deviceId} was read after the stop.`, urgent: false };
    case 'agent/error':
      return { text: `Error: ${event.message}`, urgent: true };
    case 'turn/end':
      return event.reason === 'aborted'
        ? { text: 'Stopped.', urgent: false }
        : event.reason === 'max_steps'
          ? { text: 'Stopped at the step limit.', urgent: false }
          : undefined;
    default:
      return undefined;
  }
}
