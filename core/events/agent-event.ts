import type { ToolErrorData } from '../tools/tool-error.ts';
import type { ToolCallRecord } from '../models/conversation-message.ts';

/** Why a turn ended. */
export type TurnEndReason = 'done' | 'error' | 'aborted' | 'max_steps';

export type BatchMode = 'parallel' | 'serial';

export interface BatchCallSummary {
  index: number;
  callId: string;
  name: string;
  args: Record<string, unknown>;
}

interface EventBase {
  /** Milliseconds since the epoch. */
  at: number;
  conversationId: string;
  turnId: string;
}

/**
 * Every event of a turn, `noun/verb`. The CLI prints them as JSON Lines; the journal stores them;
 * front ends fold them. Fields named here are a stable contract: extend, never break.
 */
export type AgentEvent = EventBase &
  (
    | { type: 'turn/start'; text: string; model: string }
    | { type: 'step/start'; step: number }
    | { type: 'request/header'; step: number; tools: string[]; systemPromptHash: string; requestHash: string }
    | { type: 'text/delta'; step: number; text: string }
    | { type: 'message/assistant'; step: number; text: string; toolCalls: ToolCallRecord[] }
    | { type: 'batch/start'; step: number; batchId: string; mode: BatchMode; reason: string; calls: BatchCallSummary[] }
    | { type: 'tool/start'; batchId: string; callId: string; name: string; index: number }
    | {
        type: 'tool/end';
        batchId: string;
        callId: string;
        name: string;
        index: number;
        ok: boolean;
        result?: unknown;
        error?: ToolErrorData;
        queuedMs: number;
        runMs: number;
        startedAt: number;
        endedAt: number;
      }
    | {
        type: 'approval/request';
        batchId: string;
        callId: string;
        index: number;
        name: string;
        args: Record<string, unknown>;
      }
    | {
        type: 'approval/end';
        batchId: string;
        callId: string;
        approved: boolean;
        why: 'answered' | 'timeout' | 'aborted';
      }
    | { type: 'output/send'; batchId: string; callId: string; index: number; channel: string; text: string }
    | { type: 'batch/end'; batchId: string; wallMs: number; executed: number }
    | { type: 'step/end'; step: number }
    | { type: 'agent/error'; message: string }
    | { type: 'turn/end'; reason: TurnEndReason; error?: string }
  );

export type AgentEventType = AgentEvent['type'];

/** Distributive Omit, so each event variant keeps its own fields. */
export type AgentEventInput = AgentEvent extends infer E
  ? E extends AgentEvent
    ? Omit<E, 'at' | 'conversationId' | 'turnId'>
    : never
  : never;
