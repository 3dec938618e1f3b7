import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** One reply of the scripted model (the shape of core/models/scripted's script file). */
export interface ScriptedReply {
  text?: string;
  /** `id`: the call's id as the model sends it (absent: the scripted model numbers calls itself). */
  toolCalls?: { name: string; args?: Record<string, unknown>; id?: string }[];
}

/** The walking skeleton: both lamps and the thermometer in one reply, then "Done.". */
export const walkingSkeletonReplies: ScriptedReply[] = [
  {
    toolCalls: [
      { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
      { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
    ],
  },
  { text: 'Done.' },
];

/** A temp folder holding a host's data dir and its script; `remove()` deletes all of it. */
export interface HostFolder {
  dataDir: string;
  scriptFile: string;
  remove(): Promise<void>;
}

/** Makes a fresh temp folder with a data dir and a script file of `replies`. */
export async function makeHostFolder(replies: ScriptedReply[]): Promise<HostFolder> {
  const root = await mkdtemp(path.join(tmpdir(), 'home-agent-e2e-'));
  const scriptFile = path.join(root, 'script.json');
  await writeFile(scriptFile, JSON.stringify({ replies }, null, 2));
  return {
    dataDir: path.join(root, 'data'),
    scriptFile,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
