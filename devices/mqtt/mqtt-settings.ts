// Pure (zod and the URL reading of mqtt-url.ts, no Node import): the renderer bundles the settings table, which spreads these rows in.
import { z } from 'zod';
import { ENV_NAME, NOT_A_VARIABLE_NAME, parseMqttUrl } from './mqtt-url.ts';
import {
  wayInSettingWithDefault,
  wayInSettingWithoutDefault,
  wholeNumber,
  type WayInSecret,
} from '../links/way-in-setting.ts';

/** The defaults of the broker way in's topic prefix and message limit (256 KiB): their rows below and the code read these. */
export const BROKER_TOPIC_PREFIX = 'home-agent';
export const BROKER_MAX_MESSAGE_BYTES = 262_144;

/** What applies while the broker URL is unset, in the words its help says after "Empty:". */
const NO_BROKER = 'none';

/**
 * A broker URL as stored, read as connecting reads it (`parseMqttUrl`): `mqtt://` or `mqtts://`, and
 * never a password — a URL is kept in shell history, process lists, logs and this store, so the
 * password comes from a variable named beside it.
 */
const brokerUrlSchema = z
  .string()
  .trim()
  .max(2000, 'a broker URL has at most 2,000 characters')
  .superRefine((text, context) => {
    try {
      parseMqttUrl(text);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  });

/** A topic prefix: one or more topic levels, no wildcards, no leading or trailing `/`. */
const topicPrefixSchema = z
  .string()
  .max(100, 'a topic prefix has at most 100 characters')
  .regex(
    /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/,
    'topic levels of letters, digits, _ and -, joined by / (e.g. home-agent)',
  );

/** The MQTT way in's settings, as the host's settings table takes them (keys, flags and variables are kept as issue 18 named them). */
export const mqttSettings = {
  mqttUrl: wayInSettingWithoutDefault({
    schema: brokerUrlSchema,
    label: 'MQTT broker',
    input: 'text',
    placeholder: 'mqtt://home-agent@192.168.1.10:1883',
    help: `The broker (Mosquitto) through which bridged devices on other machines, Zigbee2MQTT, Tasmota and Home Assistant discovery devices are reached; mqtt://USER@HOST:PORT, never with a password in it. Empty: ${NO_BROKER}.`,
    // Not the kebab of its key, on purpose (issue 18): `--mqtt URL`.
    flag: 'mqtt',
    env: 'HOME_AGENT_MQTT_URL',
    appliesAt: 'start',
    default: undefined,
    defaultFrom: NO_BROKER,
    quoteRefused: false,
    valueName: 'URL',
    example: 'mqtt://home-agent@192.168.1.10:1883',
    usage: 'required',
    exampleText: 'The devices the broker announces (the password is read from $BROKER_PASSWORD).',
  }),
  mqttPasswordEnv: wayInSettingWithoutDefault({
    schema: z.string().max(200, 'a variable name has at most 200 characters').regex(ENV_NAME, NOT_A_VARIABLE_NAME),
    label: 'MQTT password variable',
    input: 'text',
    placeholder: 'MQTT_PASSWORD',
    help: 'The name of the environment variable that holds the broker password. The password itself is never shown, logged or stored in plain text; the desktop app may keep it in the keychain instead (Broker password), used when no variable is named.',
    flag: 'mqtt-password-env',
    // A password pasted where its variable's name goes must not be echoed back.
    quoteRefused: false,
    env: 'HOME_AGENT_MQTT_PASSWORD_ENV',
    appliesAt: 'start',
    default: undefined,
    defaultFrom: 'the Broker password kept in the keychain, else none',
    valueName: 'VAR',
    example: 'BROKER_PASSWORD',
    usage: 'optional',
  }),
  mqttTopicPrefix: wayInSettingWithDefault({
    schema: topicPrefixSchema,
    label: 'MQTT topic prefix',
    input: 'text',
    placeholder: BROKER_TOPIC_PREFIX,
    help: `The first topic level(s) of Home Agent's own topics on the broker (bridges publish under it). Empty: ${BROKER_TOPIC_PREFIX}.`,
    flag: 'mqtt-topic-prefix',
    env: 'HOME_AGENT_MQTT_TOPIC_PREFIX',
    appliesAt: 'start',
    default: BROKER_TOPIC_PREFIX,
    valueName: 'PREFIX',
    example: 'house/agent',
  }),
  mqttMaxMessageBytes: wayInSettingWithDefault({
    schema: wholeNumber({ min: 1024, max: 8_388_608, what: 'the size of one MQTT message (bytes)' }),
    label: 'MQTT message size limit (bytes)',
    input: 'integer',
    help: `Messages from the broker larger than this are counted and dropped, and none larger is sent. Empty: ${BROKER_MAX_MESSAGE_BYTES.toLocaleString('en-US')} (256 KiB).`,
    flag: 'mqtt-max-message-bytes',
    env: 'HOME_AGENT_MQTT_MAX_MESSAGE_BYTES',
    appliesAt: 'start',
    default: BROKER_MAX_MESSAGE_BYTES,
    valueName: 'BYTES',
    example: '65536',
  }),
} as const;

/** The secrets the MQTT way in may use: the broker password, when no variable names it (the desktop app's keychain). */
export const mqttSecrets = {
  mqttPassword: {
    label: 'Broker password',
    help: 'The password of the MQTT broker’s user, used from the next start when no password variable is set.',
    settingKey: 'mqttPasswordEnv',
  },
} as const satisfies Record<string, WayInSecret>;

/** The broker the MQTT way in reaches, as its settings say (defaults from their entries); undefined while no URL is set. */
export interface MqttBrokerSettings {
  url: string;
  /** The environment variable that holds the password (never the password itself). */
  passwordEnv?: string | undefined;
  topicPrefix: string;
  maxMessageBytes: number;
}

/**
 * The broker the host's settings name (each value checked already by its row's schema), its defaults
 * filled in from the constants the rows above take theirs from (the host's `settingValue` is a layer
 * up); undefined while no broker URL is set.
 */
export function mqttBrokerOf(settings: Readonly<Record<string, unknown>>): MqttBrokerSettings | undefined {
  const url = settings.mqttUrl;
  if (typeof url !== 'string') return undefined;
  const passwordEnv = settings.mqttPasswordEnv;
  const topicPrefix = settings.mqttTopicPrefix;
  const maxMessageBytes = settings.mqttMaxMessageBytes;
  return {
    url,
    passwordEnv: typeof passwordEnv === 'string' ? passwordEnv : undefined,
    topicPrefix: typeof topicPrefix === 'string' ? topicPrefix : BROKER_TOPIC_PREFIX,
    maxMessageBytes: typeof maxMessageBytes === 'number' ? maxMessageBytes : BROKER_MAX_MESSAGE_BYTES,
  };
}
