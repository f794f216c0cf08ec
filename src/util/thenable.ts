/**
 * What `await` treats as a promise: an object or function with a `then` method.
 * Hot paths test for it so that a handler answering synchronously is answered
 * without a promise (and its microtask hops) per step.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
