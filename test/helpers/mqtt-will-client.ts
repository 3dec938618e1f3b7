// Run as its own process (compiled-entries.ts): one MqttBroker connection with a will, which the test
// kills so the broker publishes the will. Reads MQTT_URL, MQTT_PASSWORD_ENV, WILL_TOPIC; prints `connected`.
import { MqttBroker } from '../../devices/mqtt/mqtt-broker.ts';
import { readMqttCredentials } from '../../devices/mqtt/mqtt-url.ts';

const broker = new MqttBroker({
  credentials: readMqttCredentials({ url: process.env.MQTT_URL ?? '', passwordEnv: process.env.MQTT_PASSWORD_ENV }),
  maxMessageBytes: 1024,
  will: { topic: process.env.WILL_TOPIC ?? 'will', payload: 'gone', retain: true },
});
await broker.connect({ timeoutMs: 10_000 });
process.stdout.write('connected\n');
// Stays connected until killed.
setInterval(() => undefined, 60_000);
