/** Where a broker is and who we are on it; the password is never part of it. */
export interface MqttAddress {
  protocol: 'mqtt' | 'mqtts';
  host: string;
  port: number;
  username?: string;
}

/** A broker address and the password read from the environment, ready to connect with. */
export interface MqttCredentials {
  address: MqttAddress;
  /** Read from the variable `passwordEnv` names, or the keychain; never from a URL, a flag or the store. */
  password?: string;
}

const DEFAULT_PORTS = { mqtt: 1883, mqtts: 8883 } as const;

/** An environment variable's name as a shell writes it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What is said of a password variable that is not a variable's name. Never with the text given: a
 * person who pastes the password itself where its variable's name goes must not see it echoed.
 */
export const NOT_A_VARIABLE_NAME =
  'is not an environment variable name: name the variable that holds the broker password (letters, digits and _, not starting with a digit, e.g. MQTT_PASSWORD), never the password itself';

/**
 * Reads `mqtt://[user@]host[:port]` or `mqtts://…`: the one reading of a broker URL, for the flag,
 * the setting and connecting. Throws an Error saying what is wrong and what to write instead, never
 * repeating the URL (an unreadable one may hold a password): a password in the URL is refused, because
 * a URL ends up in shell history, process lists, logs and the settings store; it comes from an
 * environment variable (or the desktop app's keychain) instead. Pure: the settings table runs it.
 */
export function parseMqttUrl(text: string): MqttAddress {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error('that is not a broker URL: write mqtt://USER@HOST:PORT (or mqtts:// for TLS)');
  }
  const protocol = url.protocol.replace(/:$/, '');
  if (protocol !== 'mqtt' && protocol !== 'mqtts')
    throw new Error(`a broker URL starts with mqtt:// or mqtts://, got ${protocol}://`);
  if (url.password !== '')
    throw new Error(
      'the broker URL holds a password: a URL is kept in shell history, process lists, logs and settings, so the password ' +
        'never goes in it. Remove it (mqtt://USER@HOST:PORT) and name the environment variable that holds it with --mqtt-password-env VAR',
    );
  if (url.hostname === '') throw new Error('the broker URL names no host: write mqtt://USER@HOST:PORT');
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '')
    throw new Error(`the broker URL takes no path, query or fragment: write ${protocol}://USER@HOST:PORT`);
  const username = decodeURIComponent(url.username);
  return {
    protocol,
    // URL keeps an IPv6 host in brackets; a socket wants it bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? DEFAULT_PORTS[protocol] : Number(url.port),
    ...(username === '' ? {} : { username }),
  };
}

/**
 * The address of `url` with the password from the environment variable named `passwordEnv` (when
 * given), else the one the front end keeps (`keptPassword`: the desktop app's keychain), else none.
 * Throws naming the variable when it is unset or empty, and without repeating it when it is not a
 * variable name (it may be the password).
 */
export function readMqttCredentials(options: {
  url: string;
  passwordEnv?: string | undefined;
  env?: Readonly<Record<string, string | undefined>>;
  keptPassword?: () => string | undefined;
}): MqttCredentials {
  const address = parseMqttUrl(options.url);
  if (options.passwordEnv === undefined || options.passwordEnv === '') {
    const kept = options.keptPassword?.();
    return kept === undefined || kept === '' ? { address } : { address, password: kept };
  }
  if (!ENV_NAME.test(options.passwordEnv)) throw new Error(`--mqtt-password-env ${NOT_A_VARIABLE_NAME}`);
  const password = (options.env ?? process.env)[options.passwordEnv];
  if (password === undefined || password === '')
    throw new Error(`the environment variable ${options.passwordEnv} (the broker password) is not set`);
  return { address, password };
}

/** The address as it may be shown and logged: `mqtt://host@127.0.0.1:1883` (there is no password to hide). */
export function describeMqttAddress(address: MqttAddress): string {
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  const user = address.username === undefined ? '' : `${encodeURIComponent(address.username)}@`;
  return `${address.protocol}://${user}${host}:${address.port}`;
}
