import { RequestContext, type RequestContextInit } from '../request/context.js';
import type { ServerScope } from './server-scope.js';
import type { SessionScope } from './session-scope.js';

/**
 * The context a method handler receives: the RequestContext tool, resource
 * and prompt handlers see, plus the two scopes around it. One object per
 * request, as before: handlers of the registries get the same one.
 */
export class MethodContext extends RequestContext {
  /** @internal the server this request reached */
  readonly server: ServerScope;
  /** @internal the session it belongs to; undefined on the shared stateless connection */
  readonly session: SessionScope | undefined;

  constructor(init: RequestContextInit, server: ServerScope, session: SessionScope | undefined) {
    super(init);
    this.server = server;
    this.session = session;
  }
}
