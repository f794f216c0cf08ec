import type { JsonRpcId } from '../../jsonrpc/message.js';
import { RequestCancelledError } from '../wire/errors.js';
import { BOTH_ERAS, LEGACY_ONLY } from '../wire/method-facts.js';
import type { NotificationMethod } from './shared.js';

/** The client gave up on one of its requests: it is aborted and gets no response. */
export const cancelled: NotificationMethod = {
  method: 'notifications/cancelled',
  kind: 'notification',
  eras: BOTH_ERAS,
  handle(params, ctx) {
    const id = params['requestId'];
    if (id !== undefined) ctx.session?.inFlight(id as JsonRpcId)?.abort(new RequestCancelledError(params['reason']));
  },
};

/** The end of the legacy handshake: nothing to do (the session is usable from `initialize` on). */
export const initialized: NotificationMethod = {
  method: 'notifications/initialized',
  kind: 'notification',
  eras: LEGACY_ONLY,
  handle: () => undefined,
};

export const rootsListChanged: NotificationMethod = {
  method: 'notifications/roots/list_changed',
  kind: 'notification',
  eras: BOTH_ERAS,
  async handle(_params, ctx) {
    await ctx.server.hooks?.onRootsListChanged?.({ sessionId: ctx.sessionId, authInfo: ctx.extra.authInfo });
  },
};
