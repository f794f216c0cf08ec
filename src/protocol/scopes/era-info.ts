import type { ClientView } from '../extensions.js';
import type { InputBroker } from '../request/context.js';
import type { LoggingLevel } from '../../wire-types/index.js';
import type { ProtocolVersion } from '../wire/versions.js';
import type { Era, MethodFacts } from '../wire/method-facts.js';
import type { ServerScope } from './server-scope.js';

/** Who is asking, in which revision: one shape for both eras (a negotiated SessionScope is one). */
export interface EraInfo {
  readonly era: Era;
  readonly version: ProtocolVersion;
  /** `ctx.client`: who is asking, and what it declared. */
  readonly client: ClientView;
  readonly logLevel: LoggingLevel | undefined;
  /** Modern requests carry out client requests as Multi Round-Trip Requests. */
  readonly broker: InputBroker | undefined;
  /** Reshapes a method's result for this revision. */
  finalize(method: MethodFacts, result: unknown, server: ServerScope): unknown;
}
