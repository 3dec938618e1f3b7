import { AT_RELAY_BOARD_PROFILE } from './at-relay-board-profile.ts';
import { parseLineProfile, type LineProfile } from './line-profile-schema.ts';
import { profileTools } from './profile-connector.ts';
import type { ProfileFormat } from './profile-format.ts';

/** Line profiles (AT-style text commands and reply patterns): the format a profile file is when it says no other. */
export const lineProfileFormat: ProfileFormat<LineProfile> = {
  protocol: 'lines',
  label: 'a line profile',
  builtins: { 'at-relay-4': AT_RELAY_BOARD_PROFILE },
  // The fallback: a file that says no protocol is read as lines.
  says: () => false,
  parse: (json) => parseLineProfile(json),
  tools: profileTools,
  withoutConfirm: (profile) => ({ ...profile, tools: profile.tools.map(({ confirm: _confirm, ...tool }) => tool) }),
};
