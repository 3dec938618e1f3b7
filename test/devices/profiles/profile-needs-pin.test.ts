import { describe, expect, it } from 'vitest';
import { AT_RELAY_BOARD_PROFILE } from '../../../devices/profiles/at-relay-board-profile.ts';
import { parseLineProfile } from '../../../devices/profiles/line-profile-schema.ts';
import { profileTools } from '../../../devices/profiles/profile-connector.ts';
import { actionsOf } from '../../../host/devices/device-admin.ts';

describe('a profile that marks an action as needing the approval PIN', () => {
  it('declares it as a hello would, and the person is shown it', () => {
    // A relay board wired to a gate: its profile file marks `set` (the channels open the gate).
    const gate = parseLineProfile(
      JSON.parse(
        JSON.stringify({
          ...AT_RELAY_BOARD_PROFILE,
          name: 'gate-relay',
          tools: AT_RELAY_BOARD_PROFILE.tools.map((tool) => (tool.name === 'set' ? { ...tool, needsPin: true } : tool)),
        }),
      ),
    );
    const tools = profileTools(gate);
    expect(tools.find((tool) => tool.name === 'set')).toMatchObject({ name: 'set', needsPin: true });
    expect(tools.find((tool) => tool.name === 'get')).not.toHaveProperty('needsPin');
    expect(actionsOf(tools).map((action) => [action.name, action.declaresPin === true])).toEqual([
      ['set', true],
      ['get', false],
    ]);
    // The built-in board marks nothing: a relay may switch anything, so the person decides.
    expect(profileTools(AT_RELAY_BOARD_PROFILE).some((tool) => tool.needsPin !== undefined)).toBe(false);
  });
});
