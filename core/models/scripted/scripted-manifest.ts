import type { LocalModelManifest } from '../provider-manifest.ts';

/** A scripted replay (`--script FILE`): no server, no AI. */
export const scriptedManifest = {
  testMessage: 'The scripted model replays the file given with --script: nothing to connect to.',
} satisfies LocalModelManifest;
