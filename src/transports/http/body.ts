/** Reading and parsing a POST body under the size and batch limits. */
import { ErrorCode } from '../../jsonrpc/errors.js';
import { httpError, parseError } from './errors.js';
import type { BodyResult, HttpRequest, HttpResponse } from './types.js';

/** `bytes`: the body's size as read (when a framework parsed it: the declared Content-Length, else the size measured after parsing). */
export type PayloadResult = { ok: true; payload: unknown; bytes: number } | { ok: false; response: HttpResponse };

export function readPayload(request: HttpRequest, maxBodyBytes: number, maxBatchSize: number): Promise<PayloadResult> {
  // One reaction on the body's promise: no async frame (and no extra microtask) around the parse.
  return request.readBody(maxBodyBytes).then((body) => parsePayload(request, body, maxBodyBytes, maxBatchSize));
}

/** A body already read, parsed under the batch limit (`readPayload` without its promise). */
export function parsePayload(request: HttpRequest, body: BodyResult, maxBodyBytes: number, maxBatchSize: number): PayloadResult {
  let payload: unknown;
  let bytes = 0;
  switch (body.kind) {
    case 'too-large':
      return {
        ok: false,
        response: httpError(413, ErrorCode.InvalidRequest, `Payload too large: the body exceeds ${body.limit ?? maxBodyBytes} bytes (${body.by ?? 'maxBodyBytes'})`),
      };
    case 'failed':
      return { ok: false, response: httpError(400, ErrorCode.InvalidRequest, 'Bad request: the request body could not be read') };
    case 'parsed':
      payload = body.value;
      // A chunked body has no Content-Length: the size measured after parsing, so in-flight limits still count it.
      bytes = Number(request.headers['content-length']) || body.bytes || 0;
      break;
    case 'text':
      if (body.text.trim() === '') return { ok: false, response: parseError('the body is empty; send a JSON-RPC message') };
      bytes = body.text.length;
      try {
        payload = JSON.parse(body.text);
      } catch (error) {
        return { ok: false, response: parseError(error instanceof Error ? error.message : 'invalid JSON') };
      }
  }
  if (Array.isArray(payload) && payload.length > maxBatchSize) {
    return {
      ok: false,
      response: httpError(
        400,
        ErrorCode.InvalidRequest,
        `Invalid Request: the batch holds ${payload.length} messages, more than the limit of ${maxBatchSize} (maxBatchSize)`,
      ),
    };
  }
  return { ok: true, payload, bytes };
}
