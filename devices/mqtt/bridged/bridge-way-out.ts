import path from 'node:path';
import type { OpenWayOut, WayOut, WayOutNames } from '../../registry/way-out.ts';
import { MqttBroker } from '../mqtt-broker.ts';
import { describeMqttAddress, readMqttCredentials } from '../mqtt-url.ts';
import { bridgeNameFromHostName, bridgeNameSchema } from './bridge-name.ts';
import { BridgeStateFile } from './bridge-state-file.ts';
import { bridgedDeviceId, bridgedPath } from './bridged-device-id.ts';
import { bridgeWill, DeviceBridge } from './device-bridge.ts';

/** Where a bridge reaches its broker: the settings it is made from. */
export interface BridgeBrokerSettings {
  url: string;
  passwordEnv?: string | undefined;
  topicPrefix: string;
  maxMessageBytes: number;
  /** Where the password variable is read (default: this process's environment). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The file a bridge keeps its pairings in, in its state folder. */
export function bridgeStateFileOf(stateFolder: string, name: string): string {
  return path.join(stateFolder, `bridge-${name}.json`);
}

/** A bridge's name rule and its pairing codes, which need no broker. */
export const bridgeNames: WayOutNames = {
  nameProblem: (name) => {
    const checked = bridgeNameSchema.safeParse(name);
    return checked.success ? undefined : (checked.error.issues[0]?.message ?? 'not a bridge name');
  },
  defaultName: bridgeNameFromHostName,
  newPairingCode: ({ stateFolder, name }) =>
    BridgeStateFile.open(bridgeStateFileOf(stateFolder, name)).newPairingCode(),
};

/**
 * `home-agent bridge` through a broker: a retained availability with its last will, a description
 * per device, signed requests answered for the hosts paired with the one-time code (DeviceBridge).
 */
export function bridgeWayOut(settings: BridgeBrokerSettings): WayOut {
  // Read now: a bad URL or an unset variable is refused before any device is opened.
  const credentials = readMqttCredentials({
    url: settings.url,
    passwordEnv: settings.passwordEnv,
    ...(settings.env ? { env: settings.env } : {}),
  });
  const label = `the broker ${describeMqttAddress(credentials.address)}`;
  return {
    label,
    ...bridgeNames,
    async open(options): Promise<OpenWayOut> {
      const state = BridgeStateFile.open(bridgeStateFileOf(options.stateFolder, options.name));
      const broker = new MqttBroker({
        credentials,
        maxMessageBytes: settings.maxMessageBytes,
        will: bridgeWill(settings.topicPrefix, options.name),
      });
      const bridge = new DeviceBridge({
        broker,
        name: options.name,
        topicPrefix: settings.topicPrefix,
        maxMessageBytes: settings.maxMessageBytes,
        registry: options.registry,
        state,
        log: options.log,
      });
      const stopProblems = broker.onProblem((problem) => {
        if (problem.problem !== 'connection') options.log(`${label}: ${problem.problem}: ${problem.detail}`);
      });
      try {
        await bridge.start();
        await broker.connect({ timeoutMs: options.connectTimeoutMs ?? 10_000, signal: options.signal });
      } catch (error) {
        stopProblems();
        await broker.close();
        throw error;
      }
      return {
        devices: () =>
          options.registry.entriesView().flatMap((entry) => {
            const address = { bridge: options.name, device: entry.trustedIdentity.id };
            const id = bridgedDeviceId(address);
            return id === undefined ? [] : [{ id, kind: entry.trustedIdentity.kind, path: bridgedPath(address) }];
          }),
        close: async () => {
          await bridge.close();
          stopProblems();
          await broker.close();
        },
      };
    },
  };
}
