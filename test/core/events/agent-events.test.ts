import { describe, expect, it } from 'vitest';
import { agentRig, lampSetPlugin } from '../../helpers/agent-rig.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';

const turnStart: AgentEvent = { type: 'turn/start', at: 1, conversationId: 'c', turnId: 't', text: 'hi', model: 'm' };

/** A store whose journal fails from the given event on (a full disk). */
class FailingJournalStore extends InMemoryConversationStore {
  constructor(private readonly failFrom: AgentEvent['type']) {
    super();
  }
  private failing = false;
  override appendEvent(event: AgentEvent): void {
    if (event.type === this.failFrom) this.failing = true;
    if (this.failing) throw new Error('SQLITE_FULL: database or disk is full');
    super.appendEvent(event);
  }
}

describe('AgentEvents', () => {
  it('journals an event before any listener hears it', () => {
    const order: string[] = [];
    const events = new AgentEvents({ journal: { appendEvent: () => void order.push('journal') } });
    events.subscribe(() => order.push('listener'));
    expect(events.emit(turnStart)).toBe(true);
    expect(order).toEqual(['journal', 'listener']);
  });

  it('still broadcasts an event the journal refused, says so, and tells the failure listeners', () => {
    const heard: AgentEvent[] = [];
    const failures: string[] = [];
    const events = new AgentEvents({
      journal: {
        appendEvent: () => {
          throw new Error('SQLITE_FULL');
        },
      },
    });
    events.subscribe((event) => heard.push(event));
    events.onJournalFailure(({ error, event }) => failures.push(`${event.type}: ${(error as Error).message}`));
    expect(events.emit(turnStart)).toBe(false);
    expect(heard).toEqual([turnStart]);
    expect(failures).toEqual(['turn/start: SQLITE_FULL']);
  });
});

describe('a turn whose journal stops writing', () => {
  it('stops before the next tool runs and ends with an error the person sees', async () => {
    const ran: string[] = [];
    const { agent, events: heard } = agentRig({
      store: new FailingJournalStore('message/assistant'),
      model: new ScriptedModel({ replies: [{ toolCalls: [{ name: 'lamp__set', args: {} }] }, { text: 'done' }] }),
      plugins: [lampSetPlugin(ran)],
    });
    const outcome = await agent.runTurn({ conversationId: 'c', text: 'lamp on' });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toMatch(/journal could not record message\/assistant/);
    expect(ran).toEqual([]);
    const end = heard.at(-1);
    expect(end).toMatchObject({ type: 'turn/end', reason: 'error' });
  });
});
