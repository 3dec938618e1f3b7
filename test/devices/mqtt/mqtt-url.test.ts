import { describe, expect, it } from 'vitest';
import { describeMqttAddress, parseMqttUrl, readMqttCredentials } from '../../../devices/mqtt/mqtt-url.ts';

describe('parseMqttUrl', () => {
  it('reads the user, host and port of mqtt:// and mqtts:// URLs, with the protocols’ default ports', () => {
    expect(parseMqttUrl('mqtt://host@127.0.0.1:1884')).toEqual({
      protocol: 'mqtt',
      host: '127.0.0.1',
      port: 1884,
      username: 'host',
    });
    expect(parseMqttUrl('mqtt://broker.local')).toEqual({ protocol: 'mqtt', host: 'broker.local', port: 1883 });
    expect(parseMqttUrl('mqtts://pi@broker.local')).toEqual({
      protocol: 'mqtts',
      host: 'broker.local',
      port: 8883,
      username: 'pi',
    });
    expect(parseMqttUrl('mqtt://[::1]:1900')).toEqual({ protocol: 'mqtt', host: '::1', port: 1900 });
  });

  it('refuses a password in the URL, saying why and where the password goes instead', () => {
    expect(() => parseMqttUrl('mqtt://host:s3cret@127.0.0.1:1883')).toThrow(
      /holds a password: a URL is kept in shell history, process lists, logs and settings.*--mqtt-password-env VAR/,
    );
  });

  it('never repeats the password it refused', () => {
    let message = '';
    try {
      parseMqttUrl('mqtt://host:hunter2-secret@127.0.0.1:1883');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toBe('');
    expect(message).not.toContain('hunter2');
  });

  it('never repeats a URL it cannot read, which may hold a password', () => {
    expect(() => parseMqttUrl('mqtt://host:hunter2@[broker')).toThrow(
      'that is not a broker URL: write mqtt://USER@HOST:PORT (or mqtts:// for TLS)',
    );
    expect(() => parseMqttUrl('mqtt://host:hunter2@[broker')).not.toThrow(/hunter2/);
  });

  it('refuses other schemes, a missing host, and a path or query, naming what to write', () => {
    expect(() => parseMqttUrl('ws://broker:9001')).toThrow('a broker URL starts with mqtt:// or mqtts://, got ws://');
    expect(() => parseMqttUrl('broker:1883')).toThrow(/starts with mqtt:\/\/ or mqtts:\/\//);
    expect(() => parseMqttUrl('not a url')).toThrow('that is not a broker URL: write mqtt://USER@HOST:PORT');
    expect(() => parseMqttUrl('mqtt://broker/topic')).toThrow('takes no path, query or fragment');
    expect(() => parseMqttUrl('mqtt://broker?x=1')).toThrow('takes no path, query or fragment');
  });
});

describe('readMqttCredentials', () => {
  it('reads the password from the environment variable it is named by', () => {
    expect(
      readMqttCredentials({ url: 'mqtt://host@127.0.0.1:1883', passwordEnv: 'BROKER_PW', env: { BROKER_PW: 'pw-1' } }),
    ).toEqual({ address: { protocol: 'mqtt', host: '127.0.0.1', port: 1883, username: 'host' }, password: 'pw-1' });
  });

  it('has no password when no variable is named', () => {
    expect(readMqttCredentials({ url: 'mqtt://host@127.0.0.1:1883', env: { BROKER_PW: 'pw-1' } })).toEqual({
      address: { protocol: 'mqtt', host: '127.0.0.1', port: 1883, username: 'host' },
    });
  });

  it('names the variable when it is unset or empty, and refuses a name that is not a variable’s', () => {
    expect(() => readMqttCredentials({ url: 'mqtt://h@b', passwordEnv: 'NOPE', env: {} })).toThrow(
      'the environment variable NOPE (the broker password) is not set',
    );
    expect(() => readMqttCredentials({ url: 'mqtt://h@b', passwordEnv: 'EMPTY', env: { EMPTY: '' } })).toThrow(
      'the environment variable EMPTY (the broker password) is not set',
    );
    expect(() => readMqttCredentials({ url: 'mqtt://h@b', passwordEnv: 'pw=1', env: {} })).toThrow(
      '--mqtt-password-env is not an environment variable name',
    );
  });

  it('never repeats a --mqtt-password-env value that is not a variable name (it may be the password itself)', () => {
    const pasted = 's3cr3t pa55!';
    let message = '';
    try {
      readMqttCredentials({ url: 'mqtt://h@b', passwordEnv: pasted, env: {} });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('is not an environment variable name');
    expect(message).not.toContain(pasted);
    expect(message).not.toContain('s3cr3t');
  });
});

describe('describeMqttAddress', () => {
  it('writes the address back as a URL, which never holds a password', () => {
    const { address } = readMqttCredentials({
      url: 'mqtt://host@127.0.0.1:1884',
      passwordEnv: 'PW',
      env: { PW: 'top-secret' },
    });
    expect(describeMqttAddress(address)).toBe('mqtt://host@127.0.0.1:1884');
    expect(describeMqttAddress({ protocol: 'mqtts', host: '::1', port: 8883 })).toBe('mqtts://[::1]:8883');
  });
});
