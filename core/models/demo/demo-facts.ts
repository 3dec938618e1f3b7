import type { LocalModelFacts } from '../provider-manifest.ts';

/** The demo planner, data only (its model: demo-manifest.ts): no server, no AI. */
export const demoFacts = {
  testMessage: 'The demo model needs no server: nothing to connect to.',
  described: 'the demo model (no AI)',
  examples: {
    ask: {
      command: 'home-agent ask --sim "turn on all lamps"',
      text: 'The demo model switches both simulated lamps on in one parallel batch.',
    },
  },
} satisfies LocalModelFacts;
