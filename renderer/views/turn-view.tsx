import { memo } from 'react';
import type { TurnItem } from '../state/turns-reducer.ts';
import { BatchPanel } from './batch-panel.tsx';
import { ChatMessage } from './chat-message.tsx';
import { describeDeviceState } from '../../host/contract/api-contract.ts';
import { useAppStore } from './use-app-store.ts';
import { turnIsStopping } from '../state/chat-slice.ts';

const endings = { aborted: 'Stopped.', max_steps: 'Stopped at the step limit.', error: 'The turn failed.' } as const;

type DeviceStateItem = Extract<TurnItem, { kind: 'device-state' }>;

/** One turn: the person's message, then the assistant's text and batches as they happened, then how it ended. */
export const TurnView = memo(TurnViewBody);

function TurnViewBody(props: { turnId: string }) {
  const turn = useAppStore((state) => state.turns[props.turnId]);
  // The turn's own batches (its items name them), not the conversation's: this runs on every change of the store.
  const mayHaveActed = useAppStore((state) =>
    (state.turns[props.turnId]?.items ?? []).some(
      (item) =>
        item.kind === 'batch' &&
        state.batches[item.batchId]?.calls.some((call) => call.outcome === 'unknown' || call.status === 'interrupted'),
    ),
  );
  const stopping = useAppStore((state) => turnIsStopping(state, props.turnId));
  if (!turn) return null;
  const lastAssistant = turn.items.findLastIndex((item) => item.kind === 'assistant');
  const states = turn.items.filter((item): item is DeviceStateItem => item.kind === 'device-state');
  return (
    <article className="turn" data-testid="turn" data-status={turn.status} aria-label="Turn">
      {turn.userText && (
        <ChatMessage role="user" text={turn.userText} {...(turn.askedBy !== undefined ? { by: turn.askedBy } : {})} />
      )}
      {turn.items.map((item, position) => {
        if (item.kind === 'batch') return <BatchPanel key={item.batchId} batchId={item.batchId} />;
        if (item.kind === 'device-state') return null;
        if (item.kind === 'warning') {
          return (
            <p key={`warning-${position}`} className="turn-warning" data-testid="context-warning" role="note">
              {item.message}
            </p>
          );
        }
        if (item.kind === 'error') {
          return (
            <p key={`error-${position}`} className="turn-error">
              {item.message}
            </p>
          );
        }
        if (!item.text) return null;
        const streaming = turn.status === 'running' && !item.final && position === lastAssistant;
        return <ChatMessage key={`step-${item.step}`} role="assistant" text={item.text} streaming={streaming} />;
      })}
      {stopping && (
        <p className="turn-ending turn-ending-aborted" data-testid="turn-stopping">
          Stopping: reading the devices that may have acted…
        </p>
      )}
      {states.length > 0 && <StatesAfterStop states={states} />}
      {turn.status !== 'running' && turn.status !== 'done' && (
        <p className={`turn-ending turn-ending-${turn.status}`} data-testid="turn-ending">
          {endings[turn.status]}
          {turn.error && !turn.items.some((item) => item.kind === 'error' && item.message === turn.error)
            ? ` ${turn.error}`
            : ''}
          {turn.status === 'aborted' && mayHaveActed
            ? ' Calls marked “outcome unknown” had left for their devices: they may have acted.'
            : ''}
        </p>
      )}
    </article>
  );
}

/** What the host found when it read the devices again after the Stop. */
function StatesAfterStop(props: { states: DeviceStateItem[] }) {
  return (
    <section className="states-after-stop" data-testid="states-after-stop" aria-label="Devices read after the stop">
      <p className="states-after-stop-title">After the stop, the devices that may have acted were read again:</p>
      <ul>
        {props.states.map((state, position) => (
          <li
            key={position}
            data-testid="device-state"
            data-device-id={state.deviceId}
            data-readable={state.error ? 'false' : 'true'}
          >
            <span className="device-state-id">{state.deviceId}</span>
            {state.args && Object.keys(state.args).length > 0 ? ` (${describeDeviceState(state.args)})` : ''}{' '}
            {state.error
              ? `could not be read (${state.error.reason}${state.error.detail ? `: ${state.error.detail}` : ''}); it may have acted.`
              : `is now ${describeDeviceState(state.result)}.`}
          </li>
        ))}
      </ul>
    </section>
  );
}
