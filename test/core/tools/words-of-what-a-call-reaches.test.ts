import { describe, expect, it } from 'vitest';
import { decideBatchMode } from '../../../core/batch/decide-batch-mode.ts';
import { describeCallOutcome, describeErrorReason } from '../../../core/tools/describe-call-outcome.ts';
import { renderOutcomeForModel } from '../../../core/tools/tool-result.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

const tool = (name: string, more: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  handler: () => 'ok',
  ...more,
});

describe('a tool that says what its calls reach, and why it is serial', () => {
  it('a serial tool with its own reason gives that reason; one without says it declares serial', () => {
    const mcp = tool('mcp__x__y', { serial: true, serialReason: 'mcp__x__y is a tool of an untrusted server' });
    expect(
      decideBatchMode([
        { name: 'lamp__get', tool: tool('lamp__get') },
        { name: mcp.name, tool: mcp },
      ]),
    ).toEqual({
      mode: 'serial',
      reason: 'serial: mcp__x__y is a tool of an untrusted server',
    });
    const lamp = tool('lamp__set', { serial: true });
    expect(
      decideBatchMode([
        { name: 'lamp__set', tool: lamp },
        { name: 'a', tool: tool('a') },
      ]).reason,
    ).toBe('serial: lamp__set declares serial');
  });

  it('outcome words name what the call reached, and the device when the tool says nothing', () => {
    expect(describeCallOutcome('not_sent', false, 'the MCP server mcp-x').meaning).toBe(
      'nothing reached the MCP server mcp-x: it did not act',
    );
    expect(describeCallOutcome('unknown', false, 'the MCP server mcp-x').meaning).toBe(
      'the request left but no answer came: the MCP server mcp-x may have acted',
    );
    expect(describeCallOutcome('not_sent', false).meaning).toBe('nothing reached the device: it did not act');
    expect(describeCallOutcome('unknown', false).meaning).toBe(
      'the request left but no answer came: the device may have acted',
    );
  });

  it('the reason code device_offline reads "not connected" for what is not a device, and stays as it is for a device', () => {
    expect(describeErrorReason('device_offline', 'the MCP server mcp-x')).toBe('not connected');
    expect(describeErrorReason('device_offline')).toBe('device_offline');
    expect(describeErrorReason('timeout', 'the MCP server mcp-x')).toBe('timeout');
  });

  it('the model’s note names what the call reached; the stable fields stay', () => {
    const error = { ok: false as const, error: { reason: 'device_offline' as const, detail: 'down' } };
    expect(JSON.parse(renderOutcomeForModel(error, 'not_sent', { reaches: 'the MCP server mcp-x' }))).toEqual({
      error: { reason: 'device_offline', detail: 'down' },
      outcome: 'not_sent',
      note: 'Nothing was sent to the MCP server mcp-x: it did not act.',
    });
    expect(JSON.parse(renderOutcomeForModel(error, 'unknown', { reaches: 'the MCP server mcp-x' })).note).toBe(
      'The request left for the MCP server mcp-x but no answer came: it may have acted. Find out what it did before saying what happened or trying again.',
    );
    expect(JSON.parse(renderOutcomeForModel(error, 'not_sent')).note).toBe('Nothing was sent: the device did not act.');
  });
});
