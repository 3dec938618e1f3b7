import { canonicalJson } from '../../core/agent/canonical-json.ts';
import {
  compareDeclarations,
  verdictOf,
  type DeclarationComparison,
  type DeclarationDifference,
} from '../protocol/compare-declarations.ts';
import type { DeviceTool } from '../protocol/frame-schema.ts';
import type { DeviceProfile, ProfileSource } from '../profiles/resolve-profile.ts';
import { formatOf, parseProfileText } from '../ways-in/builtin-profile-formats.ts';

/**
 * Compares a profile file as read now (`current`) with the content pinned at pairing. The same
 * bytes, or the same profile once read (formatting, key order, defaults written out), is `same`.
 * Otherwise the actions it declares are compared as a hello's are (`compareDeclarations`), and
 * everything else it says — commands, reply patterns, registers, bus defaults, how it identifies —
 * must not have changed: any such change is a `profile` difference, never a stronger one.
 */
export function compareProfileSources(options: {
  pinned: ProfileSource;
  current: DeviceProfile;
}): DeclarationComparison {
  const { pinned, current } = options;
  if (current.source?.sha256 === pinned.sha256) return { verdict: 'same', differences: [] };
  let before: DeviceProfile;
  try {
    before = parseProfileText(current.name, pinned.content);
  } catch (error) {
    return changed(current.name, `the content pinned at pairing no longer reads (${(error as Error).message})`);
  }
  if (before.protocol !== current.protocol)
    return changed(current.name, `it was ${formatOf(before).label} at pairing, now ${formatOf(current).label}`);
  const actions = compareDeclarations(declaredTools(before), declaredTools(current));
  const was = withoutConfirm(before);
  const now = withoutConfirm(current);
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])]
    .filter((key) => canonicalJson(was[key]) !== canonicalJson(now[key]))
    .sort();
  const differences: DeclarationDifference[] = [
    ...actions.differences,
    ...(keys.length > 0 ? [profileDifference(current.name, `its content changed (${keys.join(', ')})`)] : []),
  ];
  return { verdict: verdictOf(differences), differences };
}

/** The tools a profile declares, as its device's hello says them. */
export function declaredTools(profile: DeviceProfile): DeviceTool[] {
  return formatOf(profile).tools(profile.profile);
}

/** The profile with whether each action asks left out: that part is compared as the declared tools. */
function withoutConfirm(profile: DeviceProfile): Record<string, unknown> {
  return formatOf(profile).withoutConfirm(profile.profile);
}

function changed(name: string, detail: string): DeclarationComparison {
  return { verdict: 'changed', differences: [profileDifference(name, detail)] };
}

function profileDifference(name: string, detail: string): DeclarationDifference {
  return { change: 'profile', stronger: false, detail: `profile ${name}: ${detail}` };
}
