import type { Z2mExpose } from './z2m-bridge-devices.ts';

const ACCESS_STATE = 1;
const ACCESS_SET = 2;
const ACCESS_GET = 4;

/** An on/off a set call may switch: the `state` binary of a switch or light expose. */
export interface Z2mSwitchable {
  /** The key of the set payload and of the published state (`state`, `state_l1`). */
  property: string;
  valueOn: string | number | boolean;
  valueOff: string | number | boolean;
  /** `light` or `switch`: the expose it belongs to. */
  of: 'light' | 'switch';
}

/** A value the device publishes in its state (a numeric sensor, an occupancy, a switch's state). */
export interface Z2mReadable {
  property: string;
  type: 'numeric' | 'binary' | 'enum';
  unit?: string;
  /** Access bit 4: the device answers `zigbee2mqtt/NAME/get` for it. */
  gettable: boolean;
}

/** What Home Agent can use of a device's exposes, and what it leaves out. */
export interface Z2mCapabilities {
  switchables: Z2mSwitchable[];
  readables: Z2mReadable[];
  /** Exposes not used, by type (`cover`, `climate`, `composite`…), each once. */
  unsupported: string[];
}

const SCALAR = new Set(['numeric', 'binary', 'enum']);

/**
 * Pure: reads `exposes` as Zigbee2MQTT documents them. A `switch` or `light` expose's `state`
 * binary whose access has the set bit becomes a switchable (its `value_on` and `value_off` are what a
 * set call sends); every numeric, binary or enum value in the published state (access bit 1), at
 * the top level or inside a switch or light, is readable. Everything else (covers, locks, climate,
 * fans, brightness and colour as settings, lists, composites) is left out and named.
 */
export function z2mCapabilities(exposes: readonly Z2mExpose[]): Z2mCapabilities {
  const switchables: Z2mSwitchable[] = [];
  const readables: Z2mReadable[] = [];
  const unsupported = new Set<string>();
  const readable = (expose: Z2mExpose): void => {
    if (!SCALAR.has(expose.type) || expose.property === undefined) return;
    if (((expose.access ?? 0) & ACCESS_STATE) === 0) return;
    if (readables.some((known) => known.property === expose.property)) return;
    readables.push({
      property: expose.property,
      type: expose.type as Z2mReadable['type'],
      ...(expose.unit ? { unit: expose.unit } : {}),
      gettable: ((expose.access ?? 0) & ACCESS_GET) !== 0,
    });
  };
  for (const expose of exposes) {
    if (expose.type === 'switch' || expose.type === 'light') {
      for (const feature of expose.features ?? []) {
        const switchable = switchableOf(feature, expose.type);
        if (switchable && !switchables.some((known) => known.property === switchable.property))
          switchables.push(switchable);
        else if (feature.type !== 'binary' && ((feature.access ?? 0) & ACCESS_SET) !== 0)
          unsupported.add(`${expose.type} ${feature.name ?? feature.type}`);
        readable(feature);
      }
    } else if (SCALAR.has(expose.type)) {
      readable(expose);
      if (((expose.access ?? 0) & ACCESS_SET) !== 0) unsupported.add(`setting ${expose.property ?? expose.type}`);
    } else unsupported.add(expose.type);
  }
  return { switchables, readables, unsupported: [...unsupported] };
}

function switchableOf(feature: Z2mExpose, of: 'light' | 'switch'): Z2mSwitchable | undefined {
  if (feature.type !== 'binary' || feature.name !== 'state' || feature.property === undefined) return undefined;
  if (((feature.access ?? 0) & ACCESS_SET) === 0) return undefined;
  const { value_on: valueOn, value_off: valueOff } = feature;
  if (!isScalar(valueOn) || !isScalar(valueOff) || valueOn === valueOff) return undefined;
  return { property: feature.property, valueOn, valueOff, of };
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
