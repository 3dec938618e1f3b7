import { afterEach, describe, expect, it, vi } from 'vitest';
import { Emitter } from '../../../core/events/emitter.ts';

afterEach(() => vi.restoreAllMocks());

describe('Emitter', () => {
  it('delivers to every listener even when one throws, and reports the throw with the value', () => {
    const reports: { error: unknown; value: number }[] = [];
    const emitter = new Emitter<number>({
      name: 'test',
      onListenerError: (error, value) => reports.push({ error, value }),
    });
    const seen: string[] = [];
    emitter.subscribe((value) => seen.push(`a${value}`));
    emitter.subscribe(() => {
      throw new Error('listener bug');
    });
    emitter.subscribe((value) => seen.push(`c${value}`));
    emitter.emit(1);
    emitter.emit(2);
    expect(seen).toEqual(['a1', 'c1', 'a2', 'c2']);
    expect(reports.map((report) => [(report.error as Error).message, report.value])).toEqual([
      ['listener bug', 1],
      ['listener bug', 2],
    ]);
  });

  it('reports on the console, naming the emitter, when no handler is given, and never throws to the emitter', () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    const emitter = new Emitter<string>({ name: 'device event' });
    emitter.subscribe(() => {
      throw new Error('boom');
    });
    expect(() => emitter.emit('door')).not.toThrow();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('a device event listener failed');
    expect(logged[0]).toContain('boom');
  });

  it('falls back to the console when the error handler itself throws', () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    const emitter = new Emitter<string>({
      name: 'notice',
      onListenerError: () => {
        throw new Error('the log is gone');
      },
    });
    emitter.subscribe(() => {
      throw new Error('boom');
    });
    emitter.emit('x');
    expect(logged[0]).toContain('the log is gone');
  });

  it('lets a listener unsubscribe itself while a value is delivered, and the subscriber owns its unsubscribe', () => {
    const emitter = new Emitter<number>({ name: 'test' });
    const seen: number[] = [];
    const stop = emitter.subscribe((value) => {
      seen.push(value);
      stop();
    });
    const stopOther = emitter.subscribe((value) => seen.push(value * 10));
    emitter.emit(1);
    emitter.emit(2);
    expect(seen).toEqual([1, 10, 20]);
    expect(emitter.size).toBe(1);
    stopOther();
    expect(emitter.size).toBe(0);
  });
});
