import { z } from 'zod';
import { firstControlCharacter, isInvisible, unsafeCharacters } from './safe-text.ts';

/** The longest name a person may give (a device's alias). */
export const MAX_DISPLAY_NAME_LENGTH = 100;

/**
 * A name a person gives to something the app shows on terminals, in the window and to the model (a
 * device's alias): trimmed, 1 to 100 characters, on one line, with no control or bidi control
 * character, and not made only of invisible characters. Every front end checks names with this one
 * schema, so the API and the CLI refuse the same names with the same reasons.
 */
export const displayNameSchema = z
  .string()
  .trim()
  .min(1, 'the name is empty')
  .max(MAX_DISPLAY_NAME_LENGTH, `the name is longer than ${MAX_DISPLAY_NAME_LENGTH} characters`)
  .superRefine((name, context) => {
    const control = firstControlCharacter(name);
    if (control !== undefined)
      context.addIssue({
        code: 'custom',
        message: `the name holds a control character (${control}): names are shown on terminals and to the model as one line`,
      });
    else if (isInvisible(name))
      context.addIssue({
        code: 'custom',
        message: `the name is made only of invisible characters (${unsafeCharacters(name).join(' ')}): give it letters or digits a person can read`,
      });
  });
