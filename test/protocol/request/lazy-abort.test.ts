/** LazyAbort follows the transport's signal without listening to it until someone holds its AbortSignal. */
import { describe, expect, it } from 'vitest';
import { LazyAbort } from '../../../src/protocol/request/abort.js';
import { FlagSignal as CountingSignal } from '../../support/flag-signal.js';

describe('LazyAbort with a parent signal', () => {
  it('does not listen to the parent until its signal is read, yet reports the parent aborting', () => {
    const parent = new CountingSignal();
    const abort = new LazyAbort(parent);
    expect(parent.listeners.size).toBe(0);
    const gone = new Error('client disconnected');
    parent.abort(gone);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe(gone);
    // Read after the fact: the signal is born aborted, with the parent's reason.
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(gone);
  });

  it('a signal read before the parent aborts fires when it does, and stops listening', () => {
    const parent = new CountingSignal();
    const abort = new LazyAbort(parent);
    const signal = abort.signal;
    expect(parent.listeners.size).toBe(1);
    const seen: unknown[] = [];
    signal.addEventListener('abort', () => seen.push(signal.reason));
    parent.abort('gone');
    expect(seen).toEqual(['gone']);
    expect(parent.listeners.size).toBe(0);
  });

  it('the first reason wins: a parent that aborted unread comes before a later timeout or cancel', () => {
    const parent = new CountingSignal();
    const abort = new LazyAbort(parent);
    parent.abort('disconnected');
    abort.abort('timed out');
    expect(abort.reason).toBe('disconnected');
    const own = new LazyAbort(new CountingSignal());
    own.abort('cancelled');
    expect(own.reason).toBe('cancelled');
  });

  it('detach keeps what happened and ignores the parent afterwards, removing its listener', () => {
    const parent = new CountingSignal();
    const abort = new LazyAbort(parent);
    void abort.signal;
    abort.detach();
    expect(parent.listeners.size).toBe(0);
    parent.abort('late');
    expect(abort.aborted).toBe(false);
    expect(abort.signal.aborted).toBe(false);

    const early = new CountingSignal();
    const kept = new LazyAbort(early);
    early.abort('before the answer');
    kept.detach();
    expect(kept.reason).toBe('before the answer');
  });
});

describe('LazyAbort as an AbortSignalLike (listeners without an AbortController)', () => {
  it('runs each listener once on abort, follows the parent only once one is added, and never makes a signal', () => {
    const parent = new CountingSignal();
    const abort = new LazyAbort(parent);
    const seen: string[] = [];
    abort.addEventListener('abort', () => seen.push('a'));
    expect(parent.listeners.size).toBe(1);
    abort.addEventListener('abort', () => seen.push('b'));
    expect(parent.listeners.size).toBe(1); // one listener on the parent, however many on the flag
    parent.abort('gone');
    expect(seen).toEqual(['a', 'b']);
    expect(abort.reason).toBe('gone');
    expect(parent.listeners.size).toBe(0);
    abort.abort('again');
    expect(seen).toEqual(['a', 'b']);
  });

  it('a removed listener does not run; one added after the abort never runs (as on an AbortSignal)', () => {
    const abort = new LazyAbort();
    const seen: string[] = [];
    const first = (): void => void seen.push('first');
    abort.addEventListener('abort', first);
    abort.addEventListener('abort', () => seen.push('second'));
    abort.removeEventListener('abort', first);
    abort.abort('stop');
    abort.addEventListener('abort', () => seen.push('late'));
    expect(seen).toEqual(['second']);
  });

  it('a listener that throws does not keep the others from running', () => {
    const abort = new LazyAbort();
    const seen: string[] = [];
    abort.addEventListener('abort', () => {
      throw new Error('boom');
    });
    abort.addEventListener('abort', () => seen.push('ran'));
    expect(() => abort.abort('stop')).not.toThrow();
    expect(seen).toEqual(['ran']);
  });

  it('listeners and a signal read later both see the abort, with its reason', () => {
    const abort = new LazyAbort();
    const seen: unknown[] = [];
    abort.addEventListener('abort', () => seen.push(abort.reason));
    const signal = abort.signal;
    abort.abort('why');
    expect(seen).toEqual(['why']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('why');
  });
});

/** As an AbortSignalLike, a LazyAbort keeps an AbortSignal's listener rules: the flag is handed to transports as one. */
describe('LazyAbort listeners, as an AbortSignal', () => {
  it('runs a listener added twice once, and one removal unlinks it', () => {
    const runs: string[] = [];
    const once = (): void => void runs.push('once');
    const removed = (): void => void runs.push('removed');
    const flag = new LazyAbort();
    const signal = new AbortController();
    for (const target of [flag, signal.signal]) {
      target.addEventListener('abort', once);
      target.addEventListener('abort', once);
      target.addEventListener('abort', removed);
      target.addEventListener('abort', removed);
      target.removeEventListener('abort', removed);
    }
    flag.abort(new Error('gone'));
    const fromFlag = runs.splice(0);
    signal.abort(new Error('gone'));
    expect(fromFlag).toEqual(runs);
    expect(fromFlag).toEqual(['once']);
  });

  it('does not run a listener an earlier one removed while the flag aborts, and runs the rest', () => {
    const runs: string[] = [];
    const flag = new LazyAbort();
    const second = (): void => void runs.push('second');
    const first = (): void => {
      runs.push('first');
      flag.removeEventListener('abort', first); // itself: the next one still runs
      flag.removeEventListener('abort', second);
    };
    flag.addEventListener('abort', first);
    flag.addEventListener('abort', second);
    flag.addEventListener('abort', () => void runs.push('third'));
    flag.abort(new Error('gone'));
    expect(runs).toEqual(['first', 'third']);
  });

  it('a listener that aborts again, or adds a listener, while the flag aborts: each runs once, the reason stays the first', () => {
    const runs: unknown[] = [];
    const flag = new LazyAbort();
    flag.addEventListener('abort', () => {
      runs.push(flag.reason);
      flag.abort(new Error('second'));
      flag.addEventListener('abort', () => void runs.push('late'));
    });
    flag.addEventListener('abort', () => void runs.push(flag.reason));
    const first = new Error('first');
    flag.abort(first);
    expect(runs).toEqual([first, first]);
  });
});
