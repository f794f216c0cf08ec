import type { AuthInfo, RequestInfo } from './connection.js';
import { quotaOwnerOf } from './principal.js';

/** Who a request's state is charged to: its principal, else the remote address the transport reported. */
export function ownerOf(authInfo: AuthInfo | undefined, requestInfo: RequestInfo | undefined): string {
  const address = (requestInfo as { remoteAddress?: unknown } | undefined)?.remoteAddress;
  return quotaOwnerOf(authInfo, typeof address === 'string' ? address : undefined);
}
