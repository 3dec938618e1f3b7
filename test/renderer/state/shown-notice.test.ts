import { describe, expect, it } from 'vitest';
import { shownNotice } from '../../../renderer/state/app-slice.ts';

describe('the notice line', () => {
  it('shows the person’s notice, dismissable, while the link is open', () => {
    expect(shownNotice({ notice: 'The message was not sent: busy', connection: { status: 'open' } })).toEqual({
      text: 'The message was not sent: busy',
      dismissable: true,
    });
  });

  it('shows the lost link first while it is down, over a call that failed meanwhile', () => {
    expect(
      shownNotice({
        notice: 'Could not load the conversations: conversations/list failed: Failed to fetch',
        connection: { status: 'closed', message: 'Lost the connection to the host; reconnecting…' },
      }),
    ).toEqual({ text: 'Lost the connection to the host; reconnecting…', dismissable: false });
  });

  it('shows nothing when all is well', () => {
    expect(shownNotice({ notice: null, connection: { status: 'open' } })).toBeNull();
    expect(shownNotice({ notice: null, connection: { status: 'connecting' } })).toBeNull();
  });
});
