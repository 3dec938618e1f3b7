import type {
  ConventionCall,
  ConventionDevice,
  ConventionState,
  ConventionUpdate,
} from '../conventions/convention-device.ts';
import { noSuchAction, onArgument, readTool, setTool } from '../conventions/convention-tools.ts';
import { payloadObject, payloadText, topicNameProblem } from '../conventions/payload-text.ts';
import { mqttDeviceId } from '../mqtt-device-id.ts';

/** Where every Tasmota device announces itself (retained `Online`, and `Offline` as its last will), with the default FullTopic `%prefix%/%topic%/`. */
export const TASMOTA_LWT_FILTER = 'tele/+/LWT';

/** The `%topic%` of a `tele/TOPIC/LWT` topic, or undefined for any other topic. */
export function tasmotaTopicOf(lwtTopic: string): string | undefined {
  const levels = lwtTopic.split('/');
  return levels.length === 3 && levels[0] === 'tele' && levels[2] === 'LWT' ? levels[1] : undefined;
}

/** What a `tele/TOPIC/LWT` payload says (docs: MQTT.md, LWT Topic): `Online` true, `Offline` false, else undefined. */
export function tasmotaLwt(payload: Buffer): boolean | undefined {
  const text = payloadText(payload);
  if (text === 'Online') return true;
  if (text === 'Offline') return false;
  return undefined;
}

/**
 * The power state a message says, as `{POWER: 'ON' | 'OFF'}`: `stat/TOPIC/RESULT` `{"POWER":"ON"}`
 * (or `POWER1`, with SetOption26), `stat/TOPIC/POWER` `ON`, or the POWER of `tele/TOPIC/STATE`;
 * undefined when it says none (the RESULT of another command).
 */
export function tasmotaPower(kind: 'RESULT' | 'POWER' | 'STATE', payload: Buffer): ConventionState | undefined {
  const value = kind === 'POWER' ? payloadText(payload) : powerOf(payloadObject(payload));
  return value === 'ON' || value === 'OFF' ? { POWER: value } : undefined;
}

function powerOf(object: Record<string, unknown> | undefined): unknown {
  return object?.POWER ?? object?.POWER1;
}

/**
 * Pure: a Tasmota device found by its LWT, as a `switch` with `set` and `read` on its first
 * relay (docs: Commands.md, Power). `set` publishes exactly `ON` or `OFF` on `cmnd/TOPIC/POWER` and
 * completes when the device reports that power state; `read` publishes the empty payload, which the
 * documentation defines as a status query, and answers with the state reported.
 */
export function tasmotaDevice(topic: string): { ok: true; device: ConventionDevice } | { ok: false; why: string } {
  const problem = topicNameProblem(topic);
  if (problem) return { ok: false, why: `its topic cannot be used: ${problem}` };
  const id = mqttDeviceId('tasmota', topic);
  const topics = {
    result: `stat/${topic}/RESULT`,
    power: `stat/${topic}/POWER`,
    state: `tele/${topic}/STATE`,
    lwt: `tele/${topic}/LWT`,
    command: `cmnd/${topic}/POWER`,
  };
  const reported = (state: ConventionState): boolean => state.POWER === 'ON' || state.POWER === 'OFF';
  return {
    ok: true,
    device: {
      path: `tasmota:${topic}`,
      hello: {
        device: { id, kind: 'switch', model: 'Tasmota', firmware: '' },
        tools: [setTool({ thing: 'switch', confirms: true }), readTool({ what: ['power (on/off)'], query: true })],
        concurrent: false,
      },
      topics: [topics.result, topics.power, topics.state, topics.lwt],
      baseTopics: [`cmnd/${topic}`, `stat/${topic}`, `tele/${topic}`],
      commandTopics: [topics.command],
      wiring: [
        { label: 'command topic', value: topics.command },
        { label: 'payload on', value: 'ON' },
        { label: 'payload off', value: 'OFF' },
        { label: 'state topics', value: [topics.result, topics.power, topics.state].join(', ') },
      ],
      availabilityMode: 'latest',
      onlineBeforeAvailability: true,
      read(messageTopic, payload): ConventionUpdate | undefined {
        if (messageTopic === topics.lwt) {
          const online = tasmotaLwt(payload);
          return online === undefined ? undefined : { online, source: messageTopic };
        }
        const kind =
          messageTopic === topics.result
            ? 'RESULT'
            : messageTopic === topics.power
              ? 'POWER'
              : messageTopic === topics.state
                ? 'STATE'
                : undefined;
        const state = kind ? tasmotaPower(kind, payload) : undefined;
        return state ? { state } : undefined;
      },
      call(tool, args): ConventionCall {
        if (tool === 'set') {
          const on = onArgument(args, id);
          const word = on ? 'ON' : 'OFF';
          return {
            kind: 'publish',
            topic: topics.command,
            payload: word,
            expect: { matches: (state) => state.POWER === word, describe: `POWER ${word}` },
            answer: ({ confirmed }) => ({ on, confirmed }),
          };
        }
        if (tool === 'read')
          return {
            kind: 'publish',
            topic: topics.command,
            payload: '',
            expect: { matches: reported, describe: 'a POWER state' },
            answer: ({ state }) => ({ on: state?.POWER === 'ON' }),
          };
        throw noSuchAction(id, tool);
      },
    },
  };
}
