/**
 * The part of `node:async_hooks` the Worker uses (workerd provides it under nodejs_compat; the
 * project's types leave Node's out so Node-only APIs are not used by mistake).
 */
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, callback: () => R): R;
    getStore(): T | undefined;
  }
}
