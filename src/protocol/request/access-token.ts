/**
 * The raw access token of an authenticated request, kept off the AuthInfo
 * object's enumerable fields so that logging, spreading or serialising the
 * principal never copies it. Reached only through `ctx.accessToken()`.
 */
import type { AuthInfo } from '../connection.js';

const tokens = new WeakMap<AuthInfo, string>();

/** @internal the HTTP `auth` gate records the token it verified */
export function attachAccessToken(info: AuthInfo, token: string): void {
  tokens.set(info, token);
}

/** The token an AuthInfo was made from: `info.token` (the `authenticate` hook's) or the one `auth` verified. */
export function accessTokenOf(info: AuthInfo | undefined): string | undefined {
  if (info === undefined) return undefined;
  return info.token ?? tokens.get(info);
}
