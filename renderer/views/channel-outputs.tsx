import { useShallow } from 'zustand/react/shallow';
import { compareOutputs, type ChannelOutputView } from '../state/channels-reducer.ts';
import type { AppState } from '../state/create-app-store.ts';
import { useAppStore } from './use-app-store.ts';

const noOutputs: Record<string, ChannelOutputView[]> = {};

/** The Channels tab: every output channel of the open conversation, its sends in declared order, each with its batch. */
export function ChannelOutputs() {
  const byChannel = useAppStore(outputsOfOpenConversation);
  const channels = useAppStore(useShallow((state: AppState) => orderChannels(outputsOfOpenConversation(state))));
  return (
    <section className="channels" aria-label="Output channels">
      {channels.length === 0 && <p className="channels-empty">Nothing sent to a channel yet.</p>}
      {channels.map((channel) => (
        <section key={channel} className="channel" data-testid="channel" data-channel={channel}>
          <h3 className="channel-name">{channel}</h3>
          <ol className="channel-outputs">
            {(byChannel[channel] ?? []).map((output) => (
              <li
                key={`${output.batchId}-${output.callId}`}
                className="channel-output"
                data-testid="channel-output"
                data-channel={channel}
                data-batch-id={output.batchId}
              >
                <span className="channel-output-source">
                  batch {output.batchSequence} · call {output.index + 1}
                </span>
                <span className="channel-output-text">{output.text}</span>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </section>
  );
}

function outputsOfOpenConversation(state: AppState): Record<string, ChannelOutputView[]> {
  return (state.openConversationId ? state.channelOutputs[state.openConversationId] : undefined) ?? noOutputs;
}

/** Channels in the order their first output was declared. */
function orderChannels(byChannel: Record<string, ChannelOutputView[]>): string[] {
  const firsts = Object.entries(byChannel).flatMap(([channel, outputs]) =>
    outputs[0] ? [{ channel, first: outputs[0] }] : [],
  );
  return firsts.sort((left, right) => compareOutputs(left.first, right.first)).map((entry) => entry.channel);
}
