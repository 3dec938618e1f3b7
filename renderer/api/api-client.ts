import type { HomeAgentApi, HostNotice, SettingIssue } from '../../host/contract/api-contract.ts';

/** `unauthorized`: the host refused the token; retrying will not help until the page is reopened. */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'unauthorized';

export interface ConnectionState {
  status: ConnectionStatus;
  message?: string;
}

/** The typed API plus what a transport adds: its name, the state of its live link, and disposal. */
export interface ApiClient extends HomeAgentApi {
  readonly transport: 'electron' | 'web';
  /** Changes outside a turn (devices, plugins); always present on the UI's clients. */
  onNotice(listener: (notice: HostNotice) => void): () => void;
  /** Current link state now and on every change; returns the unsubscribe function. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /** Closes sockets and timers; the client is unusable afterwards. */
  dispose(): void;
}

/**
 * A failed API call: the host's message, the method, the status where there is one, and for a
 * refused value the field and the issues the host found (each written for the person).
 */
export class ApiCallError extends Error {
  readonly method: string;
  readonly status: number | undefined;
  readonly field: string | undefined;
  readonly issues: SettingIssue[] | undefined;

  constructor(options: { method: string; message: string; status?: number; field?: string; issues?: SettingIssue[] }) {
    super(options.message);
    this.name = 'ApiCallError';
    this.method = options.method;
    this.status = options.status;
    this.field = options.field;
    this.issues = options.issues;
  }
}

/** Parses text as JSON into a result instead of throwing: the only JSON.parse the renderer uses. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
