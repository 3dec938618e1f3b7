import { connectDeviceClient, type DeviceBrokerAccess, type ReceivedMessage } from './device-client.ts';

// Plays a Tasmota plug as Tasmota's documentation describes it (tasmota/docs: docs/MQTT.md, Command
// flow and LWT Topic; docs/Commands.md, Power), default FullTopic `%prefix%/%topic%/`, from those topics alone.

/** A played Tasmota plug. */
export interface PlayedTasmota {
  /** Every `cmnd/TOPIC/…` message it received, exactly as it came. */
  readonly commands: ReceivedMessage[];
  /** Its relay. */
  readonly power: 'ON' | 'OFF';
  /** Resolves once the broker has taken every answer it published so far. */
  answered(): Promise<void>;
  /** Resolves with the next command it receives. */
  nextCommand(): Promise<ReceivedMessage>;
  /** Drops off the broker without a goodbye: the broker publishes its will, `Offline`. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the plug: its will `Offline` (retained) on `tele/TOPIC/LWT`, then `Online` (retained). A
 * `cmnd/TOPIC/POWER` of `ON`/`OFF`/`TOGGLE` (or 1/0/2, any case) switches the relay; an empty payload
 * asks for its state. Either way it answers `stat/TOPIC/RESULT` `{"POWER":"ON"}` and `stat/TOPIC/POWER`
 * `ON` — unless `silent`, when it takes commands and answers nothing.
 */
export async function startTasmotaDevice(
  access: DeviceBrokerAccess,
  options: { topic: string; power?: 'ON' | 'OFF'; silent?: boolean },
): Promise<PlayedTasmota> {
  const { topic } = options;
  let power: 'ON' | 'OFF' = options.power ?? 'OFF';
  const commands: ReceivedMessage[] = [];
  const waiting: ((message: ReceivedMessage) => void)[] = [];
  const answers: Promise<unknown>[] = [];
  const { client, crash, stop } = await connectDeviceClient(access, {
    clientId: `DVES_${topic}`,
    will: { topic: `tele/${topic}/LWT`, payload: Buffer.from('Offline'), retain: true, qos: 1 },
  });
  client.on('message', (received, payload) => {
    const text = payload.toString('utf8');
    commands.push({ topic: received, payload: text });
    for (const resolve of waiting.splice(0)) resolve({ topic: received, payload: text });
    if (received.toUpperCase() !== `CMND/${topic}/POWER`.toUpperCase()) return;
    const word = text.trim().toUpperCase();
    if (word === 'ON' || word === '1' || word === 'TRUE') power = 'ON';
    else if (word === 'OFF' || word === '0' || word === 'FALSE') power = 'OFF';
    else if (word === 'TOGGLE' || word === '2') power = power === 'ON' ? 'OFF' : 'ON';
    else if (word !== '') return;
    if (options.silent) return;
    answers.push(
      client.publishAsync(`stat/${topic}/RESULT`, JSON.stringify({ POWER: power }), { qos: 1 }),
      client.publishAsync(`stat/${topic}/POWER`, power, { qos: 1 }),
    );
  });
  await client.subscribeAsync(`cmnd/${topic}/#`, { qos: 1 });
  await client.publishAsync(`tele/${topic}/LWT`, 'Online', { qos: 1, retain: true });
  return {
    commands,
    get power() {
      return power;
    },
    answered: async () => void (await Promise.all(answers)),
    nextCommand: () => new Promise((resolve) => waiting.push(resolve)),
    crash,
    stop: async () => {
      // Clears its retained LWT (after a crash, from a new connection), so no later test finds it.
      if (client.connected) {
        await client.publishAsync(`tele/${topic}/LWT`, '', { qos: 1, retain: true });
        await stop();
        return;
      }
      const cleaner = await connectDeviceClient(access, { clientId: `DVES_${topic}_cleanup` });
      await cleaner.client.publishAsync(`tele/${topic}/LWT`, '', { qos: 1, retain: true });
      await cleaner.stop();
    },
  };
}
