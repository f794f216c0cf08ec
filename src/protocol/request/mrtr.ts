import type { ClientRequestOptions, InputBroker, RequestContext } from './context.js';
import { plausibleAnswer } from '../wire/answers.js';
import type { AuthInfo } from '../connection.js';
import { openRequestState, requestStateBinding, signRequestState, type RequestStateBinding, type StateKeyOptions } from './request-state.js';

/** What a broker reads of the server's options: the keys that sign `requestState`, and how long a state lives. */
export interface MrtrOptions extends StateKeyOptions {
  ttlMs?: number | undefined;
}
import { isPlainObject } from '../../jsonrpc/message.js';
import { afterIo } from '../../util/timers.js';


/** Thrown into a handler whose round ended because it needs input from the client. */
export class InputRequiredSignal extends Error {
  override readonly name = 'InputRequiredSignal';
  constructor() {
    super('This round of the request ended: the client is asked for input and will retry');
  }
}

const KIND: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};


function targetOf(method: string, name: unknown): string {
  return typeof name === 'string' ? `${method} ${name}` : method;
}

/**
 * Multi Round-Trip Requests (2026-07-28): `ctx.elicit/sample/listRoots`
 * return the client's answer when this round carries it; otherwise the call
 * is recorded and never settles, and once the handler has made every call it
 * can make this round, the request ends with an InputRequiredResult listing
 * them all, plus a signed `requestState` with the answers so far.
 */
export class MrtrBroker implements InputBroker {
  readonly #options: MrtrOptions;
  readonly #method: string;
  readonly #params: Record<string, unknown>;
  /** The tool, prompt or resource named when the request arrived; the target string is built only when a state is. */
  readonly #name: unknown;
  readonly #authInfo: AuthInfo | undefined;
  // Computed when a state is opened or signed: most tool calls never need it.
  #binding: RequestStateBinding | undefined;
  readonly #opened: { answers: Record<string, unknown>; kept: Record<string, unknown> } | undefined;
  // Built on first use: most tool calls never ask the client for anything.
  #answers: Record<string, unknown> | undefined;
  #kept: Record<string, unknown> | undefined;
  #pending: Record<string, { method: string; params: Record<string, unknown> }> | undefined;
  #counters: Record<string, number> | undefined;
  #rejectors: ((error: Error) => void)[] | undefined;
  #scheduled = false;
  #onInputRequired: ((result: Record<string, unknown>) => void) | undefined;
  #onInputFailed: ((error: unknown) => void) | undefined;
  #announced = false;

  constructor(options: MrtrOptions, method: string, params: Record<string, unknown>, authInfo: AuthInfo | undefined) {
    this.#options = options;
    this.#method = method;
    this.#params = params;
    this.#name = params['name'] ?? params['uri'];
    this.#authInfo = authInfo;
    const state = params['requestState'];
    // A tampered, expired or foreign state (another user's, other arguments) is refused before the handler runs.
    this.#opened = state === undefined ? undefined : openRequestState(state, this.#bound(), options);
  }

  /** The target, principal and arguments a state of this request is bound to. */
  #bound(): RequestStateBinding {
    return (this.#binding ??= requestStateBinding(this.#method, targetOf(this.#method, this.#name), this.#params, this.#authInfo));
  }

  /** What the handler keeps across rounds (`ctx.requestState`, which reads it on first use). */
  get kept(): Record<string, unknown> {
    return (this.#kept ??= this.#opened?.kept ?? {});
  }

  request(method: string, params: Record<string, unknown>, options: ClientRequestOptions, _context: RequestContext): Promise<unknown> {
    // Only answers the handler asks for are kept: unknown inputResponses keys are ignored (the spec's SHOULD),
    // so nothing the client adds on its own reaches the signed state.
    const answers = (this.#answers ??= { ...this.#opened?.answers });
    const counters = (this.#counters ??= {});
    const kind = KIND[method] ?? 'input';
    const n = (counters[kind] = (counters[kind] ?? 0) + 1);
    const key = options.key ?? `${kind}_${n}`;
    const answer = this.#answerFor(key);
    if (answer !== undefined && plausibleAnswer(method, answer)) {
      answers[key] = answer;
      return Promise.resolve(answer);
    }
    delete answers[key];
    (this.#pending ??= {})[key] = { method, params };
    this.#schedule();
    return new Promise<unknown>((_, reject) => (this.#rejectors ??= []).push(reject));
  }

  /** This round's answer to `key`, else the one an earlier round collected. */
  #answerFor(key: string): unknown {
    const responses = this.#params['inputResponses'];
    if (isPlainObject(responses) && Object.hasOwn(responses, key)) return responses[key];
    const earlier = this.#opened?.answers;
    return earlier !== undefined && Object.hasOwn(earlier, key) ? earlier[key] : undefined;
  }

  /**
   * Where this round ends early: `inputRequired` receives the InputRequiredResult
   * once the handler needs input, `failed` what made ending the round impossible
   * (e.g. a state that cannot be serialised), so the request fails cleanly.
   */
  endRoundWith(inputRequired: (result: Record<string, unknown>) => void, failed: (error: unknown) => void): void {
    this.#onInputRequired = inputRequired;
    this.#onInputFailed = failed;
  }

  /** True once this round ended with an InputRequiredResult (or failed to). */
  get announced(): boolean {
    return this.#announced;
  }

  /** Rejects the calls left waiting so the handler's `finally` blocks run. */
  release(): void {
    const signal = new InputRequiredSignal();
    for (const reject of this.#rejectors?.splice(0) ?? []) reject(signal);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // Let every call the handler starts in parallel register before answering.
    afterIo(() => {
      this.#scheduled = false;
      const pending = this.#pending;
      if (pending === undefined || this.#announced) return;
      const options = this.#options;
      let requestState: string;
      try {
        requestState = signRequestState(
          { ...this.#bound(), answers: this.#answers ?? {}, kept: this.kept, exp: Date.now() + (options.ttlMs ?? 600_000) },
          options,
        );
      } catch (error) {
        // An answer or ctx.requestState that cannot be serialised (deep, cyclic, BigInt) fails this request only.
        this.#announced = true;
        this.#onInputFailed?.(error);
        this.release();
        return;
      }
      this.#announced = true;
      this.#onInputRequired?.({ resultType: 'input_required', inputRequests: { ...pending }, requestState });
    });
  }
}
