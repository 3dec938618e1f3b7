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
  /** Who asked, when not the person at a front end (an MCP client's name); absent: the person. */
  askedBy?: string;
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

/**
 * Pure: the turns data after a group of host events (a frame's, or a journal), in order. Its maps
 * are copied once for the whole group, not once per event (a long conversation holds thousands of
 * turns); unchanged parts keep their identity (cheap selectors).
 */
export function reduceTurns(data: TurnsData, events: readonly HostAgentEvent[]): TurnsData {
  let turns = data.turns;
  let turnOrder = data.turnOrder;
  let ownTurns = false;
  let ownOrder = false;
  for (const event of events) {
    const before = turns[event.turnId];
    const after = turnAfter(before, event);
    if (after === undefined || after === before) continue;
    if (!ownTurns) {
      turns = { ...turns };
      ownTurns = true;
    }
    turns[after.id] = after;
    const order = turnOrder[after.conversationId] ?? [];
    if (before === undefined && !order.includes(after.id)) {
      if (!ownOrder) {
        turnOrder = { ...turnOrder };
        ownOrder = true;
      }
      turnOrder[after.conversationId] = [...order, after.id];
    }
  }
  return ownTurns ? { turns, turnOrder } : data;
}

/** Pure: one turn after one host event (`turn` itself when it does not change it; a new turn on turn/start). */
function turnAfter(turn: TurnView | undefined, event: HostAgentEvent): TurnView | undefined {
  switch (event.type) {
    case 'turn/start': {
      const started: TurnView = {
        id: event.turnId,
        conversationId: event.conversationId,
        userText: event.text,
        ...(event.by !== undefined ? { askedBy: event.by } : {}),
        model: event.model,
        status: 'running',
        startedAt: event.at,
        items: [],
      };
      return started;
    }
    case 'text/delta':
      return updateTurn(turn, event, (turn) => {
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
      return updateTurn(turn, event, (turn) => {
        // The assembled message is authoritative: it replaces whatever the deltas added up to.
        const item: TurnItem = { kind: 'assistant', step: event.step, text: event.text, final: true };
        const position = turn.items.findIndex((entry) => entry.kind === 'assistant' && entry.step === event.step);
        return { ...turn, items: position === -1 ? [...turn.items, item] : replaceAt(turn.items, position, item) };
      });
    // A batch is shown from batch/open (its calls may start while the reply streams); batch/start
    // adds it only for journals written before batch/open existed.
    case 'batch/open':
    case 'batch/start':
      return updateTurn(turn, event, (turn) =>
        turn.items.some((item) => item.kind === 'batch' && item.batchId === event.batchId)
          ? turn
          : { ...turn, items: [...turn.items, { kind: 'batch', batchId: event.batchId }] },
      );
    case 'device/state':
      return updateTurn(turn, event, (turn) => ({
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
      if (event.estimatedTokens === undefined) return turn;
      return updateTurn(turn, event, (turn) => ({
        ...turn,
        context: {
          estimatedTokens: event.estimatedTokens,
          ...(event.contextTokens !== undefined ? { contextTokens: event.contextTokens } : {}),
          ...(event.omittedTurns !== undefined ? { omittedTurns: event.omittedTurns } : {}),
        },
      }));
    case 'context/warning':
      return updateTurn(turn, event, (turn) => ({
        ...turn,
        items: [...turn.items, { kind: 'warning', message: event.message }],
      }));
    case 'agent/error':
      return updateTurn(turn, event, (turn) => ({
        ...turn,
        items: [...turn.items, { kind: 'error', message: event.message }],
      }));
    case 'turn/end':
      return updateTurn(turn, event, (turn) => {
        const ended: TurnView = { ...turn, status: event.reason, endedAt: event.at };
        if (event.error !== undefined) ended.error = event.error;
        return ended;
      });
    default:
      return turn;
  }
}

/** Drops every turn of one conversation (before its journal is folded again). */
export function dropConversationTurns(data: TurnsData, conversationId: string): TurnsData {
  const kept = dropConversationEntries({ byId: data.turns, order: data.turnOrder }, conversationId);
  return kept ? { turns: kept.byId, turnOrder: kept.order } : data;
}

/** Applies `change` to the event's turn; a turn first seen mid-way (no turn/start) is created empty. */
function updateTurn(
  existing: TurnView | undefined,
  event: HostAgentEvent,
  change: (turn: TurnView) => TurnView,
): TurnView {
  const turn: TurnView = existing ?? {
    id: event.turnId,
    conversationId: event.conversationId,
    userText: '',
    model: '',
    status: 'running',
    startedAt: event.at,
    items: [],
  };
  return change(turn);
}

function replaceAt<T>(items: T[], position: number, item: T): T[] {
  const copy = items.slice();
  copy[position] = item;
  return copy;
}
