import type { Socket } from 'node:net';
import type { Host } from '../app/create-host.ts';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import { selectModel } from '../models/select-model.ts';
import { readLines, writeLine } from './link-lines.ts';
import type { LinkDoor } from './hold-home-link.ts';
import { TOOL_NAME_SLOT, turnControlSchema, turnRequestSchema, type TurnRequest } from './turn-messages.ts';

/**
 * The `turn` door: `home-agent ask` run beside the host. Its turn runs here, on the host's devices,
 * grants, approvals and journal; its per-run model (`--provider scripted --script FILE`) and
 * approval answer (`--approve-all`, or none when nobody can be asked) hold for its own turn only.
 * The turn's events go back as they are journaled; its questions are the window's too, and the
 * terminal may answer only its own. Closing the connection (Ctrl+C) stops the turn.
 */
export function turnDoor(host: Host): LinkDoor {
  return (socket: Socket) =>
    new Promise<void>((resolve) => {
      let started = false;
      const stop = new AbortController();
      const ownQuestions = new Set<string>();
      socket.once('close', () => {
        stop.abort(new Error('the command line that asked for this turn went away'));
        resolve();
      });
      readLines(socket, (line) => {
        const value = safeJson(line);
        if (!started) {
          started = true;
          const request = turnRequestSchema.safeParse(value);
          if (!request.success) {
            writeLine(socket, { refused: `not a turn request: ${request.error.issues[0]?.message ?? 'unreadable'}` });
            socket.end();
            return;
          }
          void runRoutedTurn(host, request.data.start, socket, stop.signal, ownQuestions).finally(() => socket.end());
          return;
        }
        const control = turnControlSchema.safeParse(value);
        if (!control.success) return;
        if ('stop' in control.data) {
          stop.abort(new Error('stopped at the terminal'));
          return;
        }
        const { answer } = control.data;
        if (namedQuestions(answer).every((id) => ownQuestions.has(id)))
          void Promise.resolve()
            .then(() => host.handlers['approval/answer'](answer))
            .catch(() => undefined);
      });
    });
}

async function runRoutedTurn(
  host: Host,
  request: TurnRequest,
  socket: Socket,
  signal: AbortSignal,
  ownQuestions: Set<string>,
): Promise<void> {
  let turnId: string | undefined;
  const early: AgentEvent[] = [];
  const forward = (event: AgentEvent): void => {
    if (event.type === 'approval/request' && event.approvalId !== undefined) ownQuestions.add(event.approvalId);
    writeLine(socket, { event });
  };
  const unsubscribe = host.events.subscribe((event) => {
    if (event.conversationId !== request.conversationId) return;
    if (turnId === undefined) early.push(event);
    else if (event.turnId === turnId) forward(event);
  });
  try {
    const model = request.model ? routedModel(host, request.model) : undefined;
    let started;
    try {
      started = host.agent.startTurn({
        conversationId: request.conversationId,
        text: request.text,
        signal,
        ...(model ? { model } : {}),
      });
    } catch (error) {
      writeLine(socket, { refused: (error as Error).message });
      return;
    }
    turnId = started.turnId;
    const stopOwning = host.clientTurns.begin(turnId, () => ({
      waitMs: 5 * 60_000,
      refusal: ({ toolName }) => ({
        approved: false,
        detail: `${toolName} was not run: nobody answered in time.`,
      }),
      ...(request.policy === 'allow'
        ? { policy: { kind: 'allow' as const } }
        : request.policy === 'deny'
          ? {
              policy: {
                kind: 'deny' as const,
                denial: (toolName: string) => ({
                  approved: false as const,
                  detail: (
                    request.denial?.detail ??
                    `${TOOL_NAME_SLOT} needs the person's approval, and nobody can be asked: it was not run.`
                  ).replaceAll(TOOL_NAME_SLOT, toolName),
                  ...(request.denial?.hint !== undefined ? { hint: request.denial.hint } : {}),
                }),
              },
            }
          : {}),
    }));
    for (const event of early.splice(0)) if (event.turnId === turnId) forward(event);
    try {
      const outcome = await started.done;
      writeLine(socket, { outcome: { reason: outcome.reason, ...(outcome.error ? { error: outcome.error } : {}) } });
    } finally {
      stopOwning();
    }
  } finally {
    unsubscribe();
  }
}

/** The turn's model: the host's model settings with the command line's flags over them. */
function routedModel(host: Host, asked: NonNullable<TurnRequest['model']>): () => Promise<ModelAdapter> {
  return async () => {
    const settings = host.settings();
    const choice = {
      provider: asked.provider ?? settings.provider,
      model: asked.model ?? settings.model,
      baseUrl: asked.baseUrl ?? settings.baseUrl,
      // The key the command line read from its own environment stands in for its variable.
      apiKeyEnv: asked.apiKey !== undefined ? undefined : (asked.apiKeyEnv ?? settings.apiKeyEnv),
      ...(asked.scriptFile !== undefined ? { scriptFile: asked.scriptFile } : {}),
    };
    const selected = await selectModel(choice as Parameters<typeof selectModel>[0], {
      ...(asked.apiKey !== undefined ? { storedApiKey: () => asked.apiKey } : {}),
    });
    return selected.adapter;
  };
}

/** The questions an answer names: it may answer only this turn's own. */
function namedQuestions(answer: { approvalId?: string; approvalIds?: string[] }): string[] {
  const ids = [...(answer.approvalId !== undefined ? [answer.approvalId] : []), ...(answer.approvalIds ?? [])];
  return ids.length > 0 ? ids : [''];
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
