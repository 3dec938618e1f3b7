import type { McpServerTransport } from './mcp-config.ts';

/** `${NAME}` in a value of `env` or `headers`; NAME is an environment variable's name. */
const REFERENCE = /\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Keys whose values are secrets when written out in the config (a token, a key, a password…). */
const SECRET_KEY = /auth|token|key|secret|passw|cookie|credential|session/i;

/** A server's transport with every `${VAR}` read, and the values no message may ever show. */
export type ExpandedTransport =
  { ok: true; transport: McpServerTransport; secrets: string[] } | { ok: false; problem: string };

/**
 * Reads every `${VAR}` in the values of `env` and `headers` from `environment`. A variable that is
 * not set (or a reference that is not `${NAME}`) is a problem naming the key and the variable, never
 * a value. The secrets are every value read from a variable and every value of a key that looks
 * secret: redacted from the server's stderr, its failures and the log.
 */
export function expandVariables(
  transport: McpServerTransport,
  environment: Readonly<Record<string, string | undefined>>,
): ExpandedTransport {
  const secrets: string[] = [];
  const expand = (where: 'env' | 'headers', values: Record<string, string>): Record<string, string> | string => {
    const result: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) {
      let problem: string | undefined;
      const expanded = value.replace(REFERENCE, (_match, name: string) => {
        if (!VARIABLE_NAME.test(name)) {
          problem ??= `${where}.${key}: \${${name}} is not the name of an environment variable`;
          return '';
        }
        const found = environment[name];
        if (found === undefined) {
          problem ??= `${where}.${key} reads \${${name}}, which is not set in the environment: set it, then start the server again`;
          return '';
        }
        secrets.push(found);
        return found;
      });
      if (problem !== undefined) return problem;
      if (SECRET_KEY.test(key)) secrets.push(expanded);
      result[key] = expanded;
    }
    return result;
  };
  if (transport.kind === 'stdio') {
    const env = expand('env', transport.env);
    if (typeof env === 'string') return { ok: false, problem: env };
    return { ok: true, transport: { ...transport, env }, secrets: distinct(secrets) };
  }
  const headers = expand('headers', transport.headers);
  if (typeof headers === 'string') return { ok: false, problem: headers };
  return { ok: true, transport: { ...transport, headers }, secrets: distinct(secrets) };
}

/**
 * The keys (`headers.Authorization`, `env.API_KEY`) whose values look like secrets written into the
 * config itself instead of read from a variable: the Plugins tab flags them. Names only, never values.
 */
export function literalSecretsOf(transport: McpServerTransport): string[] {
  const values = transport.kind === 'stdio' ? transport.env : transport.headers;
  const where = transport.kind === 'stdio' ? 'env' : 'headers';
  return Object.entries(values)
    .filter(([key, value]) => SECRET_KEY.test(key) && value.trim() !== '' && !value.includes('${'))
    .map(([key]) => `${where}.${key}`);
}

function distinct(values: string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))];
}
