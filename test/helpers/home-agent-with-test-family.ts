// The real `home-agent` CLI (host/front/front-ends.ts) with the test device family first among the broker's
// families, so a child process can scan and pair devices that tests play on a real broker before the
// product's own families exist. Run as its own process (compiled-entries.ts); never shipped.
import { mqttFamilies } from '../../devices/mqtt/mqtt-families.ts';
import type { MqttDeviceFamilyFactory } from '../../devices/mqtt/mqtt-device-family.ts';
import { testMqttFamily } from './mqtt-test-family.ts';

(mqttFamilies as MqttDeviceFamilyFactory[]).unshift(testMqttFamily);
const { main } = await import('../../host/front/front-ends.ts');
process.exitCode = await main(process.argv.slice(2));
