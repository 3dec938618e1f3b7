import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { HostNotice } from '../../contract/api-contract.ts';

/** The tools that change the saved sequences (the sequences plugin's): a call of one that ended ok may have. */
const CHANGING_TOOLS: ReadonlySet<string> = new Set(['seq_save', 'seq_delete']);

/**
 * Hears when the saved sequences a session is offered as prompts may have changed, from any front
 * end's turn or client on this host: a `seq_save` or `seq_delete` that ended ok (a rename is a save
 * under the new name and a delete of the old), or a plugin turned on or off (`plugins/changed`).
 * Returns the function that stops listening.
 */
export function watchSequenceChanges(
  sources: {
    notices: { subscribe(listener: (notice: HostNotice) => void): () => void };
    events: { subscribe(listener: (event: AgentEvent) => void): () => void };
  },
  changed: () => void,
): () => void {
  const stopNotices = sources.notices.subscribe((notice) => {
    if (notice.type === 'plugins/changed') changed();
  });
  const stopEvents = sources.events.subscribe((event) => {
    if (event.type === 'tool/end' && event.ok && CHANGING_TOOLS.has(event.name)) changed();
  });
  return () => {
    stopNotices();
    stopEvents();
  };
}
