import type { LocalModelManifest } from '../provider-manifest.ts';
import { DemoModel } from './demo-model.ts';

/** The demo planner: no server, no AI; the model used when none is chosen and no local server answers. */
export const demoManifest = {
  create: () => new DemoModel(),
  testMessage: 'The demo model needs no server: nothing to connect to.',
  described: 'the demo model (no AI)',
  examples: {
    ask: {
      command: 'home-agent ask --sim "turn on all lamps"',
      text: 'The demo model switches both simulated lamps on in one parallel batch.',
    },
  },
} satisfies LocalModelManifest;
