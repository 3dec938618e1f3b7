/** Why a transport closed: `disconnected` when the other end went away (unplug), false on our own close. */
export interface TransportClose {
  disconnected: boolean;
  detail?: string;
}

/** Callbacks a transport is opened with, so no byte can arrive before someone listens. */
export interface LineTransportHandlers {
  /** One complete line, newline (and a trailing `\r`) stripped. */
  onLine(line: string): void;
  /** A line longer than the frame limit was discarded (up to its newline). */
  onOversized(bytes: number): void;
  /** Called exactly once, whoever closed it. */
  onClose(reason: TransportClose): void;
}

/** A byte link framed into lines: a serial port, or one end of an in-process pair. Owned by whoever opened it. */
export interface LineTransport {
  readonly label: string;
  readonly isOpen: boolean;
  /** Writes one already-encoded line (with its `\n`); rejects if the link is closed. */
  write(line: string): Promise<void>;
  /** Closes the link; resolves when closed; safe to call twice. */
  close(): Promise<void>;
}

/** Opens a transport with its handlers; used by sessions, which re-open it after an unplug. */
export interface TransportConnector {
  readonly label: string;
  /** Resolves once the port looks present (polls for a path to reappear); rejects on abort. */
  waitUntilPresent(signal: AbortSignal): Promise<void>;
  open(handlers: LineTransportHandlers, signal: AbortSignal): Promise<LineTransport>;
}
