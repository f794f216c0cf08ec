import { unreachable, notMcp, type Json, type Wire } from './wire.js';

/** Headers of a 2026-07-28 request that proxies route on: `Mcp-Method`, and `Mcp-Name` where the body has a name. */
function routingHeaders(message: Json): Record<string, string> {
  const method = message['method'];
  if (typeof method !== 'string' || !('id' in message)) return {};
  const params = (message['params'] ?? {}) as Json;
  const name = method === 'resources/read' ? params['uri'] : method === 'tools/call' || method === 'prompts/get' ? params['name'] : undefined;
  return { 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': encodeHeaderValue(name) } : {}) };
}

/** Header values that are not printable ASCII travel as `=?base64?…?=`. */
export function encodeHeaderValue(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) && value.trim() === value ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** Messages in an SSE body, as they arrive. */
async function readEvents(body: ReadableStream<Uint8Array>, deliver: (data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
      if (data !== '') deliver(data);
    }
  }
}

/** A Streamable HTTP endpoint: each message is a POST; answers come back as JSON or an SSE stream. */
export function httpWire(url: string, extraHeaders: Record<string, string> = {}): Wire {
  let sessionId: string | undefined;
  const streams = new Set<AbortController>();
  const wire: Wire = {
    onMessage: () => {},
    onClose: () => {},
    protocolVersion: undefined,
    async send(message, headers = {}) {
      const abort = new AbortController();
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          signal: abort.signal,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(wire.protocolVersion ? { 'mcp-protocol-version': wire.protocolVersion } : {}),
            ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
            ...(wire.protocolVersion && !sessionId ? routingHeaders(message) : {}),
            ...extraHeaders,
            ...headers,
          },
          body: JSON.stringify(message),
        });
      } catch (error) {
        throw unreachable(`cannot reach ${url}: ${(error as { cause?: Error }).cause?.message ?? (error as Error).message}`);
      }
      sessionId = response.headers.get('mcp-session-id') ?? sessionId;
      const type = response.headers.get('content-type') ?? '';
      const deliver = (text: string) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw notMcp(`${url} answered HTTP ${response.status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
        }
        for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
          if (m !== null && typeof m === 'object') wire.onMessage(m as Json);
        }
      };
      if (type.includes('text/event-stream') && response.body) {
        streams.add(abort);
        void readEvents(response.body, deliver)
          .catch((error: unknown) => {
            if (!abort.signal.aborted) wire.onClose(unreachable(`the response stream from ${url} broke: ${(error as Error).message}`));
          })
          .finally(() => streams.delete(abort));
        return;
      }
      const text = await response.text();
      if (text.trim() !== '' && type.includes('json')) return deliver(text);
      if (!response.ok) {
        throw notMcp(`${url} answered HTTP ${response.status} ${response.statusText}${text ? `: ${text.slice(0, 300)}` : ''}`);
      }
    },
    async close() {
      for (const s of streams) s.abort();
      if (sessionId) {
        await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, ...(wire.protocolVersion ? { 'mcp-protocol-version': wire.protocolVersion } : {}), ...extraHeaders } }).catch(() => {}); // best effort: the session expires on the server anyway
      }
    },
  };
  return wire;
}
