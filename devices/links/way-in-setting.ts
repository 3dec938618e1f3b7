// Pure (zod only): the renderer bundles the settings table, which spreads these declarations in.
import { z } from 'zod';

/** How a setting is edited in the form, and how its text on a command line or in a variable is read. */
export type SettingInputKind = 'select' | 'text' | 'textarea' | 'lines' | 'integer';

/**
 * One setting, described once: its schema (written for people: its messages are what they read),
 * its form field, its command-line flag and environment variable, and when a change applies. The
 * host's settings table is made of these; a way in declares its own here, beside its code.
 */
export interface SettingDeclaration<S extends z.ZodType = z.ZodType> {
  schema: S;
  label: string;
  input: SettingInputKind;
  /** The options of a `select`. */
  options?: readonly string[];
  help?: string;
  placeholder?: string;
  /**
   * What the form shows in the empty field, and the hint under it, while another setting has a given
   * value (the base URL's example for the provider chosen); `placeholder` and `help` otherwise.
   */
  dependsOn?: {
    setting: string;
    placeholders?: Readonly<Record<string, string>>;
    hints?: Readonly<Record<string, string>>;
  };
  /** What its flag takes, in help (`URL` in `--base-url URL`); absent: from its input kind. */
  valueName?: string;
  /** The command-line flag that sets it for one run (`--max-steps`), without the dashes. */
  flag: string;
  /** The environment variable the desktop app reads at start (`HOME_AGENT_MAX_STEPS`). */
  env: string;
  /** `turn`: the next turn uses a new value. `start`: read when the host starts. */
  appliesAt: 'turn' | 'start';
  /** The value the code uses while the setting is unset (read with `settingValue`), where it has one. */
  default?: z.output<S>;
  /**
   * For a setting with no value of its own while unset (`default: undefined`): what applies instead, in
   * words ("the provider’s usual address"); its help says it after "empty:".
   */
  defaultFrom?: string;
  /** False: a refused value is never repeated in the message (it may hold a secret, as a URL with a password does). */
  quoteRefused?: false;
}

/**
 * A setting a way in reads (where its peer is, how it signs in): a setting like any other, plus what
 * the help of the commands that reach devices (`devices scan|pair`, `bridge`) shows of it.
 */
export interface WayInSetting<S extends z.ZodType = z.ZodType> extends SettingDeclaration<S> {
  /** What its flag takes, in help (`URL` in `--flag URL`). */
  valueName: string;
  /** A value help's example gives it. */
  example: string;
  /**
   * Whether `devices scan|pair` name it in their usage: `required` where that way in is reached by it
   * (set, the way in is configured), `optional` beside it (in brackets); absent: only under Options.
   */
  usage?: 'required' | 'optional';
  /** For the `required` one: what help's example of scanning with the example values finds. */
  exampleText?: string;
}

/**
 * A secret a way in may use (a password to sign in to its peer), kept in the OS keychain where the
 * front end has one (the desktop app); never a setting, never shown back, never logged.
 */
export interface WayInSecret {
  /** The form field's accessible name (`Broker password`). */
  label: string;
  /** What the form says beside it. */
  help: string;
  /** Where a front end with no keychain takes it from instead: the setting naming its environment variable. */
  settingKey: string;
}

/**
 * Declares a way-in setting whose unset value the code reads from its entry, and nowhere else (keeps
 * its schema's type, so the table infers each value's type). Every way-in row is made by this or by
 * wayInSettingWithoutDefault, so none leaves its default out.
 */
export function wayInSettingWithDefault<S extends z.ZodType>(
  spec: WayInSetting<S> & { default: z.output<S> },
): WayInSetting<S> & { default: z.output<S> } {
  return spec;
}

/** Declares a way-in setting with no value of its own while unset: `defaultFrom` says what applies instead. */
export function wayInSettingWithoutDefault<S extends z.ZodType>(
  spec: WayInSetting<S> & { default: undefined; defaultFrom: string },
): WayInSetting<S> & { default: undefined; defaultFrom: string } {
  return spec;
}

/** A whole number in a range, with messages a person can act on (the schema of a numeric setting). */
export function wholeNumber(options: { min: number; max: number; what: string }) {
  const range = `${options.what} is a whole number from ${options.min} to ${options.max}`;
  return z.number({ error: range }).int({ error: range }).min(options.min, range).max(options.max, range);
}
