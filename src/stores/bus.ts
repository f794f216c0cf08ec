/**
 * The notification bus: how list changes and resource updates reach every
 * connection and listen stream. In memory by default; a shared implementation
 * (e.g. Redis pub/sub) makes several processes act as one server.
 */
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

/**
 * Who a resource update is for, when not everyone subscribed: one legacy session (by id), or one
 * principal (`principalOf(authInfo)`, `''` for unauthenticated callers). A gateway's
 * upstream link sees its own owner's data, so its updates go to that owner only.
 */
export type UpdateAudience = { readonly sessionId: string } | { readonly principal: string };

export type BusEvent =
  | { type: 'list_changed'; list: 'tools' | 'resources' | 'prompts' }
  | { type: 'resource_updated'; uri: string; to?: UpdateAudience };

const LISTS: ReadonlySet<unknown> = new Set(['tools', 'resources', 'prompts']);

/** True for a well-formed BusEvent (what a shared bus accepts from the wire). */
export function isBusEvent(value: unknown): value is BusEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  if (event['type'] === 'list_changed') return LISTS.has(event['list']);
  return event['type'] === 'resource_updated' && typeof event['uri'] === 'string' && (event['to'] === undefined || isAudience(event['to']));
}

function isAudience(value: unknown): value is UpdateAudience {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  const to = value as Record<string, unknown>;
  return keys.length === 1 && (typeof to['sessionId'] === 'string' || typeof to['principal'] === 'string');
}

/**
 * True when `event` may reach a legacy session (`sessionId`, undefined for a connection without
 * one: stdio, in-process) or a listen stream (`sessionId` undefined) of `principal`
 * (`principalOf`, `''` unauthenticated). A session-scoped update reaches only its session;
 * a principal-scoped one only connections without a session id, of that principal (an HTTP legacy
 * session has an upstream link of its own, which scopes its updates to its id).
 */
export function reaches(event: BusEvent, sessionId: string | undefined, principal: string): boolean {
  if (event.type !== 'resource_updated' || event.to === undefined) return true;
  if ('sessionId' in event.to) return event.to.sessionId === sessionId;
  return sessionId === undefined && event.to.principal === principal;
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
