import { describe, expect, it } from 'vitest';
import { newestWins } from '../../../renderer/state/newest-wins.ts';

/** A promise settled from outside, so a test decides the order answers arrive in. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Runs one request through `requests`, writing what reaches the caller into `seen`. */
function start(requests: ReturnType<typeof newestWins>, answer: Promise<string>, seen: string[]): Promise<void> {
  return requests.run({
    request: () => answer,
    onAnswer: (value) => seen.push(`answer ${value}`),
    onError: (error) => seen.push(`error ${error instanceof Error ? error.message : String(error)}`),
  });
}

describe('newestWins', () => {
  it('hands the answer of a lone request to onAnswer', async () => {
    const seen: string[] = [];
    await start(newestWins(), Promise.resolve('devices'), seen);
    expect(seen).toEqual(['answer devices']);
  });

  it('hands the failure of a lone request to onError', async () => {
    const seen: string[] = [];
    await start(newestWins(), Promise.reject(new Error('the host is down')), seen);
    expect(seen).toEqual(['error the host is down']);
  });

  it('drops an older answer that arrives after a newer request was made, whichever lands first', async () => {
    const requests = newestWins();
    const seen: string[] = [];
    const older = deferred<string>();
    const newer = deferred<string>();
    const first = start(requests, older.promise, seen);
    const second = start(requests, newer.promise, seen);
    newer.resolve('new');
    await second;
    older.resolve('old');
    await first;
    expect(seen).toEqual(['answer new']);
  });

  it('drops an older failure as well as an older answer', async () => {
    const requests = newestWins();
    const seen: string[] = [];
    const older = deferred<string>();
    const first = start(requests, older.promise, seen);
    const second = start(requests, Promise.resolve('new'), seen);
    await second;
    older.reject(new Error('late failure'));
    await first;
    expect(seen).toEqual(['answer new']);
  });

  it('drops the answers of requests in flight once superseded, and applies later ones again', async () => {
    const requests = newestWins();
    const seen: string[] = [];
    const inFlight = deferred<string>();
    const first = start(requests, inFlight.promise, seen);
    requests.supersede();
    inFlight.resolve('stale');
    await first;
    await start(requests, Promise.resolve('fresh'), seen);
    expect(seen).toEqual(['answer fresh']);
  });
});
