/** Home Assistant's default discovery prefix (a broker set up with another one is not read). */
export const HA_DISCOVERY_PREFIX = 'homeassistant';

/** The topic filters of discovery configs: with and without the optional node level. */
export const HA_DISCOVERY_FILTERS = [`${HA_DISCOVERY_PREFIX}/+/+/config`, `${HA_DISCOVERY_PREFIX}/+/+/+/config`];

/** Where a discovery config sits: its component and its `[NODE/]OBJECT`. */
export interface HaDiscoveryPlace {
  component: string;
  node?: string;
  object: string;
  /** `NODE/OBJECT`, or `OBJECT` without a node: the device's name in its path (`ha:NODE/OBJECT`). */
  name: string;
}

const ID_LEVEL = /^[a-zA-Z0-9_-]+$/;

/**
 * Reads `homeassistant/COMPONENT/[NODE/]OBJECT/config` (docs: integrations/mqtt, Discovery topic);
 * node and object must be of `[a-zA-Z0-9_-]`, as the documentation requires. Undefined for any other topic.
 */
export function haDiscoveryPlace(topic: string): HaDiscoveryPlace | undefined {
  const levels = topic.split('/');
  if (levels[0] !== HA_DISCOVERY_PREFIX || levels.at(-1) !== 'config') return undefined;
  const middle = levels.slice(1, -1);
  if (middle.length !== 2 && middle.length !== 3) return undefined;
  if (!middle.every((level) => ID_LEVEL.test(level))) return undefined;
  const [component, ...rest] = middle as [string, ...string[]];
  const object = rest.at(-1)!;
  const node = rest.length === 2 ? rest[0] : undefined;
  return { component, ...(node ? { node } : {}), object, name: node ? `${node}/${object}` : object };
}
