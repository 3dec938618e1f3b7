import type { ButtonHTMLAttributes } from 'react';

/**
 * A button that cannot be used for now yet keeps the keyboard focus: `aria-disabled` rather than
 * `disabled` (a disabled button drops the focus to the page while, say, the host answers), and a
 * press meanwhile does nothing.
 */
export function AriaDisabledButton(
  props: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'disabled' | 'aria-disabled' | 'onClick'> & {
    unavailable: boolean;
    onPress: () => void;
  },
) {
  const { unavailable, onPress, ...button } = props;
  return (
    <button
      type="button"
      {...button}
      aria-disabled={unavailable}
      onClick={() => {
        if (!unavailable) onPress();
      }}
    />
  );
}
