import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';

/**
 * Opaque cursors: base64url of `<offset>`. They are not signed because they
 * carry nothing a client could abuse; a malformed one is -32602.
 */
export function encodeCursor(offset: number): string {
  return btoa(`o:${offset}`).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

function decodeBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(text)) return undefined;
  try {
    return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
}

export function decodeCursor(cursor: unknown): number {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor === 'string') {
    const text = decodeBase64Url(cursor);
    const match = text === undefined ? null : /^o:(\d{1,9})$/.exec(text);
    if (match && encodeCursor(Number(match[1])) === cursor) return Number(match[1]);
  }
  throw new JsonRpcProtocolError(ErrorCode.InvalidParams, 'Invalid cursor: pass back a nextCursor value from an earlier list result, unchanged');
}

/** One page of `items` and the cursor of the next one (absent on the last page). */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number | undefined): { page: readonly T[]; nextCursor?: string } {
  const offset = decodeCursor(cursor);
  if (offset > items.length) {
    throw new JsonRpcProtocolError(ErrorCode.InvalidParams, 'Invalid cursor: it points past the end of the list (the list may have changed); start again without a cursor');
  }
  if (pageSize === undefined || pageSize <= 0) return { page: offset === 0 ? items : items.slice(offset) };
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { page, nextCursor: encodeCursor(end) } : { page };
}
