import { useSyncExternalStore } from 'preact/compat';

/** A tiny observable holder of immutable state: components read it with `useStore`. */
export class Store<T extends object> {
  private listeners = new Set<() => void>();

  constructor(private state: T) {}

  get(): T {
    return this.state;
  }

  /** Replace some fields; listeners run synchronously so optimistic changes paint at once. */
  set(patch: Partial<T> | ((state: T) => Partial<T>)): void {
    const changes = typeof patch === 'function' ? patch(this.state) : patch;
    this.state = { ...this.state, ...changes };
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export function useStore<T extends object>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, () => store.get());
}
