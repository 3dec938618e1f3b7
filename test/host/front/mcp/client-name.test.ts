import { describe, expect, it } from 'vitest';
import { clientNameOf } from '../../../../host/front/mcp/client-name.ts';

describe('clientNameOf', () => {
  it('shows a name a client gave itself as it is when every character is one to read', () => {
    expect(clientNameOf({ name: 'claude-ai' })).toBe('claude-ai');
    expect(clientNameOf({ name: '  Visual Studio Code  ' })).toBe('Visual Studio Code');
  });

  it('escapes what could act instead of being read: a line break, a bidi override, a zero-width space, a tag character', () => {
    expect(clientNameOf({ name: 'evil\nline' })).toBe('evil\\u000aline');
    expect(clientNameOf({ name: 'abc\u202Efdp.exe' })).toBe('abc\\u202efdp.exe');
    expect(clientNameOf({ name: 'zero\u200Bwidth' })).toBe('zero\\u200bwidth');
    expect(clientNameOf({ name: 'tag\u{E0041}' })).toBe('tag\\udb40\\udc41');
  });

  it('cuts a long name at 100 characters (never inside a character) and names a client that gave none', () => {
    expect(clientNameOf({ name: 'x'.repeat(300) })).toBe(`${'x'.repeat(100)}…`);
    expect(clientNameOf({ name: `${'x'.repeat(99)}😀😀` })).toBe(`${'x'.repeat(99)}😀…`);
    expect(clientNameOf({ name: '' })).toBe('an MCP client');
    expect(clientNameOf(undefined)).toBe('an MCP client');
    expect(clientNameOf({ name: 42 })).toBe('an MCP client');
  });
});
