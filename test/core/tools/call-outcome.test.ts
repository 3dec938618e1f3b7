import { describe, expect, it } from 'vitest';
import { classifyCallOutcome } from '../../../core/tools/call-outcome.ts';

// Hand-written: what a person may be told about their home after each way a call can end.
const cases = [
  { label: 'succeeded', ok: true, handlerStarted: true, reportsDelivery: false, sent: false, expected: 'done' },
  {
    label: 'refused before its handler (denied)',
    ok: false,
    reason: 'denied',
    handlerStarted: false,
    reportsDelivery: true,
    sent: false,
    expected: 'not_sent',
  },
  {
    label: 'not found',
    ok: false,
    reason: 'not_found',
    handlerStarted: false,
    reportsDelivery: false,
    sent: false,
    expected: 'not_sent',
  },
  {
    label: 'stopped while waiting for approval',
    ok: false,
    reason: 'aborted',
    handlerStarted: false,
    reportsDelivery: true,
    sent: false,
    expected: 'not_sent',
  },
  {
    label: 'the device answered with an error',
    ok: false,
    reason: 'failed',
    handlerStarted: true,
    reportsDelivery: true,
    sent: true,
    expected: 'failed',
  },
  {
    label: 'a handler threw its own error',
    ok: false,
    reason: 'failed',
    handlerStarted: true,
    reportsDelivery: false,
    sent: false,
    expected: 'failed',
  },
  {
    label: 'stopped after the request left',
    ok: false,
    reason: 'aborted',
    handlerStarted: true,
    reportsDelivery: true,
    sent: true,
    expected: 'unknown',
  },
  {
    label: 'timed out after the request left',
    ok: false,
    reason: 'timeout',
    handlerStarted: true,
    reportsDelivery: true,
    sent: true,
    expected: 'unknown',
  },
  {
    label: 'the port was lost after the request left',
    ok: false,
    reason: 'device_offline',
    handlerStarted: true,
    reportsDelivery: true,
    sent: true,
    expected: 'unknown',
  },
  {
    label: 'offline before anything was written',
    ok: false,
    reason: 'device_offline',
    handlerStarted: true,
    reportsDelivery: true,
    sent: false,
    expected: 'not_sent',
  },
  {
    label: 'stopped while queued for its port',
    ok: false,
    reason: 'aborted',
    handlerStarted: true,
    reportsDelivery: true,
    sent: false,
    expected: 'not_sent',
  },
  {
    label: 'stopped inside a handler that does not report delivery',
    ok: false,
    reason: 'aborted',
    handlerStarted: true,
    reportsDelivery: false,
    sent: false,
    expected: 'unknown',
  },
] as const;

describe('classifyCallOutcome', () => {
  for (const testCase of cases) {
    it(`says ${testCase.expected} for a call that ${testCase.label}`, () => {
      const { label: _label, expected, ...call } = testCase;
      expect(classifyCallOutcome(call)).toBe(expected);
    });
  }
});
