import { describe, expect, it } from 'vitest';
import { mqttDeviceId } from '../../../devices/mqtt/mqtt-device-id.ts';
import { deviceIdentitySchema } from '../../../devices/protocol/frame-schema.ts';

// Hashes computed by hand with `printf '%s' NAME | sha256sum` (first 8 hex digits).
describe('mqttDeviceId', () => {
  it('keeps a name of letters, digits, _ and - as it is, after its source', () => {
    expect(mqttDeviceId('z2m', 'my_plug')).toBe('z2m_my_plug');
    expect(mqttDeviceId('z2m', '0x00158d00018255df')).toBe('z2m_0x00158d00018255df');
    expect(mqttDeviceId('tasmota', 'tasmota_A1B2C3')).toBe('tasmota_tasmota_A1B2C3');
  });

  it('reads topic levels as dots, without a hash: the mapping of / alone loses nothing', () => {
    expect(mqttDeviceId('z2m', 'kitchen/floor_light')).toBe('z2m_kitchen.floor_light');
    expect(mqttDeviceId('ha', 'garden/pump')).toBe('ha_garden.pump');
  });

  it('replaces any other run of characters with one - and adds the hash of the exact name', () => {
    expect(mqttDeviceId('z2m', 'kitchen lamp')).toBe('z2m_kitchen-lamp-8152b3a3');
    expect(mqttDeviceId('z2m', 'kitchen+lamp')).toBe('z2m_kitchen-lamp-1a069e77');
    expect(mqttDeviceId('z2m', 'Küche/Lampe')).toBe('z2m_K-che.Lampe-4dc36893');
  });

  it('cuts a long name to 64 characters, ending with its hash', () => {
    const id = mqttDeviceId('z2m', 'a'.repeat(70));
    expect(id).toBe(`z2m_${'a'.repeat(51)}-6bd5e503`);
    expect(id).toHaveLength(64);
  });

  it('a dot in a name is replaced (it is what / becomes), so a.b and a/b never meet', () => {
    expect(mqttDeviceId('z2m', 'a/b')).toBe('z2m_a.b');
    expect(mqttDeviceId('z2m', 'a.b')).not.toBe('z2m_a.b');
  });

  it('always gives an id the identity schema accepts, whatever the name', () => {
    for (const name of ['', '/', '../..', ' lamp', '\u202e evil', 'x'.repeat(500), '🙂', 'a/'.repeat(40)]) {
      for (const source of ['z2m', 'tasmota', 'ha'] as const) {
        const id = mqttDeviceId(source, name);
        expect(deviceIdentitySchema.shape.id.safeParse(id).success, `${source} ${JSON.stringify(name)} → ${id}`).toBe(
          true,
        );
      }
    }
  });
});
