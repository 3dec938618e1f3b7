import { HA_DISCOVERY_PREFIX } from '../ha-discovery/ha-discovery-topic.ts';
import { Z2M_BASE } from '../zigbee2mqtt/z2m-device.ts';

/** A device's base topic and the path of the device whose it is. */
export interface BaseTopic {
  base: string;
  path: string;
}

/**
 * The topics no discovered device may publish under, whatever its announcement says: Zigbee2MQTT's
 * bridge (its requests remove devices and permit joining), discovery configs (they decide what every
 * device is), the broker's own, and Home Agent's own (`PREFIX`, the setting mqttTopicPrefix).
 */
export function refusedTopicRoots(topicPrefix: string): string[] {
  return [`${Z2M_BASE}/bridge`, HA_DISCOVERY_PREFIX, '$SYS', topicPrefix];
}

/** Whether `topic` is `base` or a topic below it. */
export function isUnder(topic: string, base: string): boolean {
  return topic === base || topic.startsWith(`${base}/`);
}

/**
 * Why a discovered device may not publish on `topic`, or undefined when it may: a device publishes
 * only under its own topics — under one of `ownBases` when its discovery names them, never under a
 * refused root (`refusedTopicRoots`), never under another device's base topic (`others`).
 */
export function commandTopicProblem(options: {
  topic: string;
  path: string;
  ownBases: readonly string[];
  refusedRoots: readonly string[];
  /** Every device's base topics, by base: the paths of the devices that announce it. */
  others: ReadonlyMap<string, readonly string[]>;
}): string | undefined {
  const { topic } = options;
  const root = options.refusedRoots.find((candidate) => isUnder(topic, candidate));
  if (root !== undefined)
    return `its command topic ${topic} is under ${root}/, where no discovered device may publish (a device publishes only under its own topics)`;
  if (options.ownBases.length > 0 && !options.ownBases.some((base) => isUnder(topic, base)))
    return `its command topic ${topic} is not under its own base topic ${options.ownBases.join(' or ')}`;
  // The bases a topic is under are its leading levels: looked up, so a thousand devices cost a thousand lookups.
  const levels = topic.split('/');
  for (let count = 1; count <= levels.length; count += 1) {
    const base = levels.slice(0, count).join('/');
    const other = options.others.get(base)?.find((path) => path !== options.path);
    if (other !== undefined) return `its command topic ${topic} is under ${base}/, the base topic of ${other}`;
  }
  return undefined;
}
