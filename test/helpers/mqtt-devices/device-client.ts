import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';

/** Where a played device connects: the test broker's port and an account on it. */
export interface DeviceBrokerAccess {
  port: number;
  username: string;
  password: string;
}

/** One message a played device received, exactly as it came (topic and payload text). */
export interface ReceivedMessage {
  topic: string;
  payload: string;
}

/**
 * An MQTT 5 client of a played device on the test broker (MQTT.js directly, none of Home Agent's
 * code), with `will` if given. `crash()` leaves asking the broker to send the will (MQTT 5 reason
 * 0x04, "disconnect with will message"), as a device that loses power would leave it.
 */
export async function connectDeviceClient(
  access: DeviceBrokerAccess,
  options: { clientId: string; will?: IClientOptions['will'] },
): Promise<{ client: MqttClient; crash(): Promise<void>; stop(): Promise<void> }> {
  const client = await connectAsync({
    host: '127.0.0.1',
    port: access.port,
    username: access.username,
    password: access.password,
    protocolVersion: 5,
    clientId: options.clientId,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    ...(options.will ? { will: options.will } : {}),
  });
  return {
    client,
    crash: () => client.endAsync(false, { reasonCode: 0x04 }),
    stop: () => client.endAsync(),
  };
}
