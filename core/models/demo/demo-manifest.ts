import type { LocalModelManifest } from '../provider-manifest.ts';
import { demoFacts } from './demo-facts.ts';
import { DemoModel } from './demo-model.ts';

/** The demo planner: no server, no AI; the model used when none is chosen and no local server answers. */
export const demoManifest = {
  ...demoFacts,
  create: () => new DemoModel(),
} satisfies LocalModelManifest;
