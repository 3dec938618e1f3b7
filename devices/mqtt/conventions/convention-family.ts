import type { DeviceLink } from '../../links/device-link.ts';
import type { MqttListenerVerdict, MqttMessage } from '../mqtt-broker.ts';
import type {
  FoundMqttDevice,
  MqttDeviceFamily,
  MqttFamilyContext,
  MqttLinkRequest,
  MqttSource,
  RefusedMqttDevice,
} from '../mqtt-device-family.ts';
import { BROKER_TOPIC_PREFIX } from '../mqtt-settings.ts';
import { ConventionCatalogue } from './convention-catalogue.ts';
import { ConventionLink } from './convention-link.ts';

/**
 * What the three families of the field's conventions share: what they found lives in a catalogue,
 * `found()` lists what it offers, and each paired device gets a `ConventionLink`. A family adds its
 * source, its discovery topics and how it reads their messages.
 */
export abstract class ConventionFamily implements MqttDeviceFamily {
  abstract readonly source: Exclude<MqttSource, 'mqtt'>;
  protected readonly catalogue: ConventionCatalogue;

  /** `context`: the way in's (its topic prefix, the base topics every family shares); absent: the defaults, alone. */
  constructor(context?: Partial<MqttFamilyContext>) {
    this.catalogue = new ConventionCatalogue({
      topicPrefix: context?.topicPrefix ?? BROKER_TOPIC_PREFIX,
      book: context?.topicBook,
    });
  }

  abstract discoveryTopics(): string[];
  abstract receive(message: MqttMessage): MqttListenerVerdict;

  found(): FoundMqttDevice[] {
    return this.catalogue.offered().map(({ device, online }) => ({
      path: device.path,
      hello: device.hello,
      online,
      wiring: device.wiring,
      ...(device.suggestedRoom !== undefined ? { suggestedRoom: device.suggestedRoom } : {}),
    }));
  }

  /** Devices announced but not offered, and why (a lock, a template this host does not run, a clash of ids). */
  refused(): RefusedMqttDevice[] {
    return this.catalogue.refused();
  }

  openLink(request: MqttLinkRequest): DeviceLink {
    return new ConventionLink({
      path: request.path,
      catalogue: this.catalogue,
      broker: request.broker,
      defaults: request.defaults,
    });
  }
}
