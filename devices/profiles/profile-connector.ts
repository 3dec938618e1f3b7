import { ToolError } from '../../core/tools/tool-error.ts';
import { encodeFrame } from '../protocol/encode-frame.ts';
import type { DeviceTool, HelloResult, ResponseFrame } from '../protocol/frame-schema.ts';
import { parseRequestFrame } from '../protocol/parse-request-frame.ts';
import type { LineTransport, TransportConnector } from '../transport/line-transport.ts';
import { matchResponse, renderCommand } from './line-profile-codec.ts';
import type { LineProfile, ResponsePattern } from './line-profile-schema.ts';

/** The tools a profile declares, as a hello would. */
export function profileTools(profile: LineProfile): DeviceTool[] {
  return profile.tools.map(({ name, description, parameters, parallelSafe, serial, confirm, readOnly, needsPin }) => ({
    name,
    description,
    parameters,
    parallelSafe,
    serial,
    confirm,
    ...(readOnly !== undefined ? { readOnly } : {}),
    ...(needsPin !== undefined ? { needsPin } : {}),
  }));
}

/**
 * Makes a line-speaking device look like a Home Agent protocol device to a DeviceSession: requests
 * become command lines from the profile's templates, matching reply lines become responses, and
 * `hello` is built from the profile plus the device's identify reply. Everything else (one request
 * in flight, timeouts, unplug, reconnect) stays the session's job.
 */
export function profileConnector(inner: TransportConnector, profile: LineProfile): TransportConnector {
  return {
    label: inner.label,
    waitUntilPresent: (signal) => inner.waitUntilPresent(signal),
    async open(handlers, signal) {
      let awaiting:
        | { id: number; patterns: readonly ResponsePattern[]; onMatch(result: Record<string, unknown>): unknown }
        | undefined;
      const respond = (frame: ResponseFrame): void => {
        queueMicrotask(() => handlers.onLine(encodeFrame(frame).trimEnd()));
      };
      const device: LineTransport = await inner.open(
        {
          onLine(line) {
            const current = awaiting;
            const match = current ? matchResponse(current.patterns, line) : { matched: false as const };
            if (!current || !match.matched) {
              // Not an answer to what we asked: hand it on so the session counts and reports it.
              handlers.onLine(line);
              return;
            }
            awaiting = undefined;
            if (match.ok) respond({ id: current.id, ok: true, result: current.onMatch(match.result) });
            else respond({ id: current.id, ok: false, error: { reason: match.reason, detail: match.detail } });
          },
          onOversized: handlers.onOversized,
          onClose: handlers.onClose,
        },
        signal,
      );
      const send = (command: string): Promise<void> => device.write(`${command}${profile.lineEnding}`);
      return {
        label: device.label,
        get isOpen() {
          return device.isOpen;
        },
        close: () => device.close(),
        async write(line) {
          const parsed = parseRequestFrame(line.trimEnd());
          if (!parsed.ok) throw new Error(`profile bridge got a bad request: ${parsed.detail}`);
          const request = parsed.frame;
          if (request.op === 'hello') {
            awaiting = {
              id: request.id,
              patterns: [profile.identify.response],
              onMatch: (identity): HelloResult => ({
                device: {
                  id: String(identity.id),
                  kind: profile.kind,
                  model: profile.model,
                  firmware: String(identity.firmware ?? ''),
                },
                tools: profileTools(profile),
                concurrent: false,
              }),
            };
            return send(profile.identify.command);
          }
          const tool = profile.tools.find((candidate) => candidate.name === request.tool);
          if (tool === undefined)
            return respond({
              id: request.id,
              ok: false,
              error: { reason: 'failed', detail: `no action ${request.tool}` },
            });
          let command: string;
          try {
            command = renderCommand(tool, request.args);
          } catch (error) {
            const failure = ToolError.isInstance(error)
              ? error
              : new ToolError({ reason: 'failed', detail: String(error) });
            return respond({
              id: request.id,
              ok: false,
              error: {
                reason: failure.reason,
                detail: failure.detail ?? failure.reason,
                ...(failure.field ? { field: failure.field } : {}),
              },
            });
          }
          awaiting = {
            id: request.id,
            patterns: tool.responses,
            onMatch: (result) => ({ ...request.args, ...result }),
          };
          return send(command);
        },
      };
    },
  };
}
