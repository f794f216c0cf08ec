/**
 * The notification bus: how list changes and resource updates reach every
 * connection and listen stream. In memory by default; a shared implementation
 * (e.g. Redis pub/sub) makes several processes act as one server.
 */
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export type BusEvent =
  | { type: 'list_changed'; list: 'tools' | 'resources' | 'prompts' }
  | { type: 'resource_updated'; uri: string };

const LISTS: ReadonlySet<unknown> = new Set(['tools', 'resources', 'prompts']);

/** True for a well-formed BusEvent (what a shared bus accepts from the wire). */
export function isBusEvent(value: unknown): value is BusEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  if (event['type'] === 'list_changed') return LISTS.has(event['list']);
  return event['type'] === 'resource_updated' && typeof event['uri'] === 'string';
}

export type BusListener = (event: BusEvent) => void;

export interface NotificationBus {
  publish(event: BusEvent): void | Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: BusListener): () => void;
  /**
   * Resolves once this instance's subscribers receive events published from
   * anywhere (a shared bus subscribes asynchronously). Absent: at once.
   */
  ready?(): Promise<void>;
}

export interface MemoryNotificationBusOptions {
  /** Told when a listener throws (McpServer logs it); default: console.error. */
  onListenerError?: (error: unknown) => void;
}

const MEMORY_NOTIFICATION_BUS_KEYS = keysOf<MemoryNotificationBusOptions>({ onListenerError: true });

export class MemoryNotificationBus implements NotificationBus {
  readonly #listeners = new Set<BusListener>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(options: MemoryNotificationBusOptions = {}) {
    refuseUnknownKeys(options, MEMORY_NOTIFICATION_BUS_KEYS, 'new MemoryNotificationBus() options');
    this.#onListenerError = options.onListenerError ?? ((error) => console.error('mcpkit: a notification bus listener failed', error));
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  publish(event: BusEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // One broken listener must not starve the others; it is reported, not rethrown.
        this.#onListenerError(error);
      }
    }
  }

  subscribe(listener: BusListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
