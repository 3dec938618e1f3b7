import type { HostAgentEvent } from '../../host/contract/api-contract.ts';
import { dropConversationEntries } from './drop-conversation-entries.ts';

export type TurnStatus = 'running' | 'done' | 'error' | 'aborted' | 'max_steps';

/** One entry of a turn, in the order it happened: assistant text of a step, a batch, an error. */
export type TurnItem =
  | { kind: 'assistant'; step: number; text: string; final: boolean }
  | { kind: 'batch'; batchId: string }
  | { kind: 'error'; message: string }
  /** Something about the model's context window the person should know (a server cut the request). */
  | { kind: 'warning'; message: string }
  | {
      kind: 'device-state';
      deviceId: string;
      tool: string;
      /** The part of the device read (a relay's channel), when not the whole. */
      args?: Record<string, unknown>;
      result?: unknown;
      error?: { reason: string; detail?: string };
    };

/** A turn as the chat shows it: the user's message, then what the agent did, then how it ended. */
export interface TurnView {
  id: string;
  conversationId: string;
  userText: string;
  model: string;
  status: TurnStatus;
  error?: string;
  startedAt: number;
  endedAt?: number;
  items: TurnItem[];
  /** How full the model's context window was at the turn's latest request (its request/header). */
  context?: TurnContext;
}

/** What a request/header says of the context window: its size, the request's estimate, what was left out. */
export interface TurnContext {
  contextTokens?: number;
  estimatedTokens?: number;
  omittedTurns?: number;
}

/** The turns data: turns by id and, per conversation, their ids in start order. */
export interface TurnsData {
  turns: Record<string, TurnView>;
  turnOrder: Record<string, string[]>;
}

export const emptyTurnsData: TurnsData = { turns: {}, turnOrder: {} };

/** Pure: the turns data after one host event. Unchanged parts keep their identity (cheap selectors). */
export function reduceTurns(data: TurnsData, event: HostAgentEvent): TurnsData {
  switch (event.type) {
    case 'turn/start': {
      const turn: TurnView = {
        id: event.turnId,
        conversationId: event.conversationId,
        userText: event.text,
        model: event.model,
        status: 'running',
        startedAt: event.at,
        items: [],
      };
      return putTurn(data, turn);
    }
    case 'text/delta':
      return updateTurn(data, event, (turn) => {
        const position = turn.items.findIndex((item) => item.kind === 'assistant' && item.step === event.step);
        const existing = turn.items[position];
        if (existing?.kind !== 'assistant')
          return {
            ...turn,
            items: [...turn.items, { kind: 'assistant', step: event.step, text: event.text, final: false }],
          };
        return { ...turn, items: replaceAt(turn.items, position, { ...existing, text: existing.text + event.text }) };
      });
    case 'message/assistant':
      return updateTurn(data, event, (turn) => {
        // The assembled message is authoritative: it replaces whatever the deltas added up to.
        const item: TurnItem = { kind: 'assistant', step: event.step, text: event.text, final: true };
        const position = turn.items.findIndex((entry) => entry.kind === 'assistant' && entry.step === event.step);
        return { ...turn, items: position === -1 ? [...turn.items, item] : replaceAt(turn.items, position, item) };
      });
    // A batch is shown from batch/open (its calls may start while the reply streams); batch/start
    // adds it only for journals written before batch/open existed.
    case 'batch/open':
    case 'batch/start':
      return updateTurn(data, event, (turn) =>
        turn.items.some((item) => item.kind === 'batch' && item.batchId === event.batchId)
          ? turn
          : { ...turn, items: [...turn.items, { kind: 'batch', batchId: event.batchId }] },
      );
    case 'device/state':
      return updateTurn(data, event, (turn) => ({
        ...turn,
        items: [
          ...turn.items,
          {
            kind: 'device-state',
            deviceId: event.deviceId,
            tool: event.tool,
            ...(event.args !== undefined ? { args: event.args } : {}),
            ...(event.result !== undefined ? { result: event.result } : {}),
            ...(event.error !== undefined ? { error: event.error } : {}),
          },
        ],
      }));
    case 'request/header':
      if (event.estimatedTokens === undefined) return data;
      return updateTurn(data, event, (turn) => ({
        ...turn,
        context: {
          estimatedTokens: event.estimatedTokens,
          ...(event.contextTokens !== undefined ? { contextTokens: event.contextTokens } : {}),
          ...(event.omittedTurns !== undefined ? { omittedTurns: event.omittedTurns } : {}),
        },
      }));
    case 'context/warning':
      return updateTurn(data, event, (turn) => ({
        ...turn,
        items: [...turn.items, { kind: 'warning', message: event.message }],
      }));
    case 'agent/error':
      return updateTurn(data, event, (turn) => ({
        ...turn,
        items: [...turn.items, { kind: 'error', message: event.message }],
      }));
    case 'turn/end':
      return updateTurn(data, event, (turn) => {
        const ended: TurnView = { ...turn, status: event.reason, endedAt: event.at };
        if (event.error !== undefined) ended.error = event.error;
        return ended;
      });
    default:
      return data;
  }
}

/** Drops every turn of one conversation (before its journal is folded again). */
export function dropConversationTurns(data: TurnsData, conversationId: string): TurnsData {
  const kept = dropConversationEntries({ byId: data.turns, order: data.turnOrder }, conversationId);
  return kept ? { turns: kept.byId, turnOrder: kept.order } : data;
}

function putTurn(data: TurnsData, turn: TurnView): TurnsData {
  const order = data.turnOrder[turn.conversationId] ?? [];
  const turnOrder = order.includes(turn.id)
    ? data.turnOrder
    : { ...data.turnOrder, [turn.conversationId]: [...order, turn.id] };
  return { turns: { ...data.turns, [turn.id]: turn }, turnOrder };
}

/** Applies `change` to the event's turn; a turn first seen mid-way (no turn/start) is created empty. */
function updateTurn(data: TurnsData, event: HostAgentEvent, change: (turn: TurnView) => TurnView): TurnsData {
  const turn: TurnView = data.turns[event.turnId] ?? {
    id: event.turnId,
    conversationId: event.conversationId,
    userText: '',
    model: '',
    status: 'running',
    startedAt: event.at,
    items: [],
  };
  const changed = change(turn);
  return changed === data.turns[event.turnId] ? data : putTurn(data, changed);
}

function replaceAt<T>(items: T[], position: number, item: T): T[] {
  const copy = items.slice();
  copy[position] = item;
  return copy;
}
