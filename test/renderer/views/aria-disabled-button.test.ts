import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AriaDisabledButton } from '../../../renderer/views/aria-disabled-button.tsx';

/** The button element the component returns, whose click handler a test can call as a press. */
function buttonOf(options: { unavailable: boolean; onPress: () => void }) {
  return AriaDisabledButton(options) as ReactElement<{ onClick: () => void }>;
}

describe('AriaDisabledButton', () => {
  it('is marked aria-disabled and never disabled while unavailable, so it keeps the focus', () => {
    const markup = renderToStaticMarkup(
      createElement(AriaDisabledButton, {
        unavailable: true,
        onPress: () => undefined,
        className: 'button button-stop',
        'aria-label': 'Stop the turn',
        children: 'Stopping…',
      }),
    );
    expect(markup).toBe(
      '<button type="button" class="button button-stop" aria-label="Stop the turn" aria-disabled="true">Stopping…</button>',
    );
  });

  it('says aria-disabled="false" while it can be used', () => {
    const markup = renderToStaticMarkup(
      createElement(AriaDisabledButton, { unavailable: false, onPress: () => undefined }),
    );
    expect(markup).toBe('<button type="button" aria-disabled="false"></button>');
  });

  it('does nothing when pressed while unavailable, and runs its action once per press otherwise', () => {
    const presses: string[] = [];
    buttonOf({ unavailable: true, onPress: () => presses.push('while unavailable') }).props.onClick();
    buttonOf({ unavailable: false, onPress: () => presses.push('available') }).props.onClick();
    expect(presses).toEqual(['available']);
  });
});
