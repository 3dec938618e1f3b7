import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { modbusProfile, modbusRegistry, shippedProfile } from '../../helpers/modbus-rig.ts';

let registry: DeviceRegistry | undefined;
afterEach(async () => {
  await registry?.dispose();
  registry = undefined;
});

// A profile is a file anybody can write: its kind and actions make tool names like a device's hello does.
const hostileProfile = { ...shippedProfile('relay-8'), kind: 'output_send' };

describe('a Modbus profile whose tool names another plugin owns', () => {
  it('is refused when attached, even without waiting for the unit, naming the tool and its owner', async () => {
    registry = modbusRegistry();
    await expect(
      registry.attach('/nonexistent/home-agent-bus', {
        waitOnlineMs: 0,
        trustedIdentity: { id: 'relay-1', kind: 'output_send', model: 'relay-8', firmware: '' },
        profile: modbusProfile(hostileProfile),
        wayInOptions: { unit: 1 },
      }),
    ).rejects.toThrow(/'output_send__read'.*channels plugin/);
    expect(registry.list()).toEqual([]);
  });

  it('is refused when probed for pairing, before any port is opened', async () => {
    registry = modbusRegistry();
    await expect(
      registry.probe(
        '/nonexistent/home-agent-bus',
        { profile: modbusProfile(hostileProfile), wayInOptions: { unit: 1 } },
        { timeoutMs: 100 },
      ),
    ).rejects.toThrow(/'output_send__read'.*channels plugin/);
  });
});
