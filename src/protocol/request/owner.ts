import type { AuthInfo, RequestInfo } from '../connection.js';
import { quotaOwnerOf } from './principal.js';

/** Who a request's state is charged to: its principal, else the client address the transport reported. */
export function ownerOf(authInfo: AuthInfo | undefined, requestInfo: RequestInfo | undefined): string {
  return quotaOwnerOf(authInfo, requestInfo?.remoteAddress);
}
