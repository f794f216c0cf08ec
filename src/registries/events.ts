export type ChangeListener<T> = (event: T) => void;

/** A minimal synchronous event source; listeners must not throw (errors are swallowed). */
export class ChangeEmitter<T> {
  #listeners = new Set<ChangeListener<T>>();

  on(listener: ChangeListener<T>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: T): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A faulty listener must not break registration.
      }
    }
  }
}

export interface RegistryChange {
  type: 'added' | 'removed' | 'updated';
  key: string;
}
