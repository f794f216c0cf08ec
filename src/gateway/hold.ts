/**
 * Upstream calls held across the rounds of a 2026-07-28 downstream request. When an upstream asks
 * for input mid-call (a legacy server's request, or a 2026-07-28 server's input_required that the
 * upstream client answers), the downstream round ends with `input_required` and the upstream call
 * keeps waiting here; the downstream retry finds it by the id in its signed `requestState`, hands
 * over the answers and awaits the same call. In-process only: a retry that reaches another gateway
 * instance finds nothing and is refused.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, JsonRpcProtocolError } from '../jsonrpc/errors.js';
import type { RequestContext } from '../protocol/request/context.js';

type Json = Record<string, unknown>;
type Ask = (ctx: RequestContext, key: string) => Promise<unknown>;

interface PendingInput {
  key: string;
  ask: Ask;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

interface Held {
  linkKey: string;
  run: Promise<Json>;
  cancel(): void;
  pending: Map<string, PendingInput>;
  asks: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const MAX_HELD = 1024;

export class HoldTable {
  readonly #held = new Map<string, Held>();
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  newId(): string {
    return randomUUID();
  }

  open(id: string, linkKey: string, run: Promise<Json>, cancel: () => void): void {
    if (this.#held.size >= MAX_HELD) {
      // The oldest waiting call gives way: a bound on what clients that never come back can make the gateway keep.
      const [oldest] = this.#held.keys();
      if (oldest !== undefined) this.#expire(oldest);
    }
    this.#held.set(id, { linkKey, run, cancel, pending: new Map(), asks: 0, timer: undefined });
    run.catch(() => undefined);
  }

  /** True while the call waits for the downstream's input. */
  isHeld(id: string): boolean {
    return (this.#held.get(id)?.pending.size ?? 0) > 0;
  }

  /** The links with a call running or held here: the pool never closes them as idle. */
  linkKeys(): ReadonlySet<string> {
    return new Set([...this.#held.values()].map((held) => held.linkKey));
  }

  drop(id: string): void {
    const held = this.#held.get(id);
    if (held === undefined) return;
    if (held.timer !== undefined) clearTimeout(held.timer);
    this.#held.delete(id);
  }

  clear(): void {
    for (const id of [...this.#held.keys()]) this.#expire(id);
  }

  /**
   * The upstream asks for input during a held-able call: ask the downstream request (`ctx`). Its
   * round ends (InputRequiredSignal) and the ask stays pending until the retry brings the answer.
   */
  ask(id: unknown, ctx: RequestContext, signal: AbortSignal, ask: Ask): Promise<unknown> {
    const held = typeof id === 'string' ? this.#held.get(id) : undefined;
    if (held === undefined) return Promise.reject(new JsonRpcProtocolError(ErrorCode.InternalError, 'The gateway has no downstream request to relay this request for input to'));
    const key = `gateway_${++held.asks}`;
    return new Promise<unknown>((resolve, reject) => {
      const pending: PendingInput = { key, ask, resolve, reject };
      held.pending.set(key, pending);
      signal.addEventListener('abort', () => (held.pending.delete(key), reject(new Error('The upstream withdrew its request'))), { once: true });
      this.#put(id as string, held, pending, ctx);
    });
  }

  /**
   * The downstream retried: the held call of this id (and this link: a state from another
   * principal's call is refused by its signature before this) gets the answers, and is returned.
   */
  resume(ctx: RequestContext, id: unknown, linkKey: string): Promise<Json> | undefined {
    if (typeof id !== 'string') return undefined;
    const held = this.#held.get(id);
    if (held === undefined || held.linkKey !== linkKey) {
      throw new JsonRpcProtocolError(ErrorCode.InvalidParams, 'The upstream call this retry continues is no longer held by this gateway (it finished, timed out, or another gateway instance holds it); send the request again without inputResponses and requestState');
    }
    if (held.timer !== undefined) clearTimeout(held.timer);
    held.timer = undefined;
    const onAbort = (): void => {
      const reason: unknown = ctx.signal.reason;
      if (reason instanceof Error && reason.name === 'InputRequiredSignal' && held.pending.size > 0) return;
      this.drop(id);
      held.cancel();
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    void held.run.finally(() => ctx.signal.removeEventListener('abort', onAbort)).catch(() => undefined);
    for (const pending of [...held.pending.values()]) this.#put(id, held, pending, ctx);
    return held.run;
  }

  /** Asks `ctx` for one pending input: answered this round, or held until the next. */
  #put(id: string, held: Held, pending: PendingInput, ctx: RequestContext): void {
    pending.ask(ctx, pending.key).then(
      (answer) => {
        held.pending.delete(pending.key);
        pending.resolve(answer);
      },
      (error: unknown) => {
        if (error instanceof Error && error.name === 'InputRequiredSignal') {
          if (held.timer === undefined) held.timer = setTimeout(() => this.#expire(id), this.#timeoutMs);
          return;
        }
        held.pending.delete(pending.key);
        pending.reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  #expire(id: string): void {
    const held = this.#held.get(id);
    if (held === undefined) return;
    this.drop(id);
    for (const pending of held.pending.values()) pending.reject(new Error('The downstream client did not answer in time'));
    held.cancel();
  }
}
