import { DuplicateRegistrationError } from '../errors/classes.js';
import { ChangeEmitter, type RegistryChange } from './events.js';

/**
 * Keyed storage shared by the tool, resource, template and prompt registries:
 * registration order is listing order, a second registration of a key throws,
 * every change bumps `version` (so callers can cache derived views) and emits.
 */
export class KeyedRegistry<T> {
  readonly #kind: string;
  readonly #items = new Map<string, T>();
  readonly #disabled = new Set<string>();
  readonly #changes = new ChangeEmitter<RegistryChange>();
  #version = 0;
  #listCache: { version: number; items: T[] } | undefined;

  constructor(kind: string) {
    this.#kind = kind;
  }

  /** Increases on every change; derived views are valid while it is unchanged. */
  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#items.size;
  }

  onChange(listener: (change: RegistryChange) => void): () => void {
    return this.#changes.on(listener);
  }

  protected add(key: string, item: T): void {
    if (this.#items.has(key)) throw new DuplicateRegistrationError(this.#kind, key);
    this.#items.set(key, item);
    this.#changed('added', key);
  }

  protected replace(key: string, item: T): void {
    if (!this.#items.has(key)) throw new DuplicateRegistrationError(this.#kind, key);
    this.#items.set(key, item);
    this.#changed('updated', key);
  }

  unregister(key: string): boolean {
    if (!this.#items.delete(key)) return false;
    this.#disabled.delete(key);
    this.#changed('removed', key);
    return true;
  }

  has(key: string): boolean {
    return this.#items.has(key);
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  /** Enabled items in registration order. The array is cached between changes: do not mutate it. */
  list(): T[] {
    const cached = this.#listCache;
    if (cached?.version === this.#version) return cached.items;
    const items: T[] = [];
    for (const [key, item] of this.#items) if (!this.#disabled.has(key)) items.push(item);
    this.#listCache = { version: this.#version, items };
    return items;
  }

  isEnabled(key: string): boolean {
    return this.#items.has(key) && !this.#disabled.has(key);
  }

  /** Hides an item from listing and dispatch without forgetting it. */
  setEnabled(key: string, enabled: boolean): boolean {
    if (!this.#items.has(key)) return false;
    const was = !this.#disabled.has(key);
    if (was === enabled) return true;
    if (enabled) this.#disabled.delete(key);
    else this.#disabled.add(key);
    this.#changed(enabled ? 'added' : 'removed', key);
    return true;
  }

  /** An enabled item, or undefined. */
  protected active(key: string): T | undefined {
    return this.#disabled.has(key) ? undefined : this.#items.get(key);
  }

  #changed(type: RegistryChange['type'], key: string): void {
    this.#version++;
    this.#changes.emit({ type, key });
  }
}
