/**
 * An incremental, bounded text/event-stream parser (the WHATWG rules that MCP
 * uses: `data`, `id`, `event`, `retry`; CR, LF or CRLF line ends). Linear in the
 * input; an event longer than `maxEventBytes` throws instead of growing.
 */
export interface SseEvent {
  event: string;
  data: string;
  id: string | undefined;
}

export interface SseHandlers {
  event(event: SseEvent): void;
  /** The stream set or changed its reconnection delay. */
  retry?(ms: number): void;
  /** The last event id changed (also by an event without data, e.g. a priming event). */
  id?(id: string): void;
}

export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #dataBytes = 0;
  #event = '';
  #id: string | undefined;
  #sawCr = false;
  constructor(
    private readonly handlers: SseHandlers,
    private readonly maxEventBytes: number,
  ) {}

  push(chunk: string): void {
    let text = chunk;
    // A CRLF split across two chunks: the LF ends nothing new.
    if (this.#sawCr && text.startsWith('\n')) text = text.slice(1);
    this.#sawCr = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.#line(this.#buffer + text.slice(start, i));
      this.#buffer = '';
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else this.#sawCr = true;
      }
      start = i + 1;
    }
    this.#buffer += text.slice(start);
    if (this.#buffer.length + this.#dataBytes > this.maxEventBytes) throw new RangeError(`an SSE event is longer than ${this.maxEventBytes} bytes`);
  }

  #line(line: string): void {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#dataBytes += value.length + 1;
        if (this.#dataBytes > this.maxEventBytes) throw new RangeError(`an SSE event is longer than ${this.maxEventBytes} bytes`);
        this.#data.push(value);
        break;
      case 'event':
        this.#event = value;
        break;
      case 'id':
        if (!value.includes('\0')) {
          this.#id = value;
          this.handlers.id?.(value);
        }
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.handlers.retry?.(Number(value));
        break;
    }
  }

  #dispatch(): void {
    const data = this.#data.join('\n');
    const event = this.#event || 'message';
    const had = this.#data.length > 0;
    this.#data = [];
    this.#dataBytes = 0;
    this.#event = '';
    if (had) this.handlers.event({ event, data, id: this.#id });
  }
}
