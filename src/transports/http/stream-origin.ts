/**
 * Where a POST's response stream comes from, written into its id when several
 * instances share the event store: `<local id>@<instance>.<incarnation>[.<request id>]`,
 * the request id as base64url JSON. An instance resuming the stream learns, with
 * no lookup, which run of which instance writes it (to notice it dying, or
 * restarted) and which request it answers (to answer that with an error if so).
 */
import type { JsonRpcId } from '../../jsonrpc/message.js';
import { fromBase64Url, toBase64Url, utf8Decode, utf8Encode } from '../../util/bytes.js';

/** Longer request ids are left out of stream ids (they travel in every event id). */
const MAX_ENCODED_ID = 96;
const ORIGIN = /@([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,32})(?:\.([A-Za-z0-9_-]{1,128}))?$/;

export interface StreamOrigin {
  readonly instance: string;
  readonly incarnation: string;
  /** The request the stream answers, when it was one request with a short id. */
  readonly requestId?: JsonRpcId;
}

export function originStreamId(localId: string, instanceId: string, incarnation: string, requestId: JsonRpcId | undefined): string {
  const id = `${localId}@${instanceId}.${incarnation}`;
  if (requestId === undefined || requestId === null) return id;
  const encoded = toBase64Url(utf8Encode(JSON.stringify(requestId)));
  return encoded.length > MAX_ENCODED_ID ? id : `${id}.${encoded}`;
}

export function streamOrigin(streamId: string): StreamOrigin | undefined {
  const match = ORIGIN.exec(streamId);
  if (match === null) return undefined;
  const origin = { instance: match[1]!, incarnation: match[2]! };
  if (match[3] === undefined) return origin;
  try {
    const requestId: unknown = JSON.parse(utf8Decode(fromBase64Url(match[3])));
    return typeof requestId === 'string' || typeof requestId === 'number' ? { ...origin, requestId } : origin;
  } catch {
    return origin;
  }
}
