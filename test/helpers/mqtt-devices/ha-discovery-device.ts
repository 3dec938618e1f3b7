import { connectDeviceClient, type DeviceBrokerAccess, type ReceivedMessage } from './device-client.ts';

// Plays a device that announces itself by Home Assistant MQTT discovery, as Home Assistant's
// documentation describes it (home-assistant.io: integrations/mqtt, Discovery; switch.mqtt; sensor.mqtt),
// from those topics alone.

/** A played discovery device. */
export interface PlayedDiscoveryDevice {
  /** Every message on its command topic, exactly as it came. */
  readonly commands: ReceivedMessage[];
  /** Resolves with the next command it receives. */
  nextCommand(): Promise<ReceivedMessage>;
  /** Publishes a state payload on its state topic. */
  publishState(payload: string): Promise<void>;
  /** Publishes `payload` (retained) on `availabilityTopic`: `online` or `offline` by default. */
  publishAvailability(payload: string): Promise<void>;
  /** Publishes a new retained config in place of the first (a device updated). */
  announce(config: Record<string, unknown>): Promise<void>;
  /** Publishes the empty retained config that removes it. */
  remove(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Publishes `config` (retained) at `homeassistant/COMPONENT/[NODE/]OBJECT/config` as given (abbreviations
 * and `~` included: the played device knows its own topics, given apart). It listens on `commandTopic`;
 * with `answers`, a command payload found there is answered on `stateTopic` with the state it maps to
 * (`{'1': 'high', '0': 'low'}`).
 */
export async function startDiscoveryDevice(
  access: DeviceBrokerAccess,
  options: {
    component: string;
    node?: string;
    object: string;
    config: Record<string, unknown>;
    commandTopic?: string;
    stateTopic?: string;
    availabilityTopic?: string;
    answers?: Record<string, string>;
  },
): Promise<PlayedDiscoveryDevice> {
  const configTopic = [
    'homeassistant',
    options.component,
    ...(options.node ? [options.node] : []),
    options.object,
    'config',
  ].join('/');
  const commands: ReceivedMessage[] = [];
  const waiting: ((message: ReceivedMessage) => void)[] = [];
  const { client, stop } = await connectDeviceClient(access, {
    clientId: `played-${options.component}-${options.node ?? ''}-${options.object}`,
  });
  const { commandTopic, stateTopic, answers } = options;
  client.on('message', (topic, payload) => {
    if (topic !== commandTopic) return;
    const text = payload.toString('utf8');
    commands.push({ topic, payload: text });
    for (const resolve of waiting.splice(0)) resolve({ topic, payload: text });
    const state = answers && Object.hasOwn(answers, text) ? answers[text] : undefined;
    if (state !== undefined && stateTopic !== undefined) void client.publishAsync(stateTopic, state, { qos: 1 });
  });
  if (commandTopic) await client.subscribeAsync(commandTopic, { qos: 1 });
  await client.publishAsync(configTopic, JSON.stringify(options.config), { qos: 1, retain: true });
  return {
    commands,
    nextCommand: () => new Promise((resolve) => waiting.push(resolve)),
    publishState: async (payload) => {
      if (stateTopic === undefined) throw new Error('the played device has no state topic');
      await client.publishAsync(stateTopic, payload, { qos: 1 });
    },
    publishAvailability: async (payload) => {
      if (options.availabilityTopic === undefined) throw new Error('the played device has no availability topic');
      await client.publishAsync(options.availabilityTopic, payload, { qos: 1, retain: true });
    },
    announce: async (config) => {
      await client.publishAsync(configTopic, JSON.stringify(config), { qos: 1, retain: true });
    },
    remove: async () => {
      await client.publishAsync(configTopic, '', { qos: 1, retain: true });
    },
    stop: async () => {
      await client.publishAsync(configTopic, '', { qos: 1, retain: true });
      if (options.availabilityTopic) await client.publishAsync(options.availabilityTopic, '', { qos: 1, retain: true });
      await stop();
    },
  };
}
