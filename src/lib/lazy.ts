/** Every lazy of this isolate (see `loadEveryLazy`). */
const everyLazy: (() => Promise<unknown>)[] = [];

/**
 * What `load` gives (a module imported on first use), loaded once and kept: later calls get it without calling `load`
 * again, so without another `import()`. Bundled, an `import()` of a module already loaded costs nothing; in the Workers
 * test pool every `import()` asks the pool's module service again, and two at once of the same module share one
 * request's I/O, resuming the other request in that one's context (docs/decisions.md, "In the test pool"). A load that
 * fails is tried again by the next call.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: { value: T } | undefined;
  let loading: Promise<T> | undefined;
  const get = (): Promise<T> => {
    if (loaded) return Promise.resolve(loaded.value);
    loading ??= load().then(
      (value) => {
        loaded = { value };
        return value;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  everyLazy.push(get);
  return get;
}

/**
 * Loads every lazy of the modules imported so far: the test worker does so before any request (test/setup.ts), so no
 * request or queue event ever waits on a load another one started.
 */
export async function loadEveryLazy(): Promise<void> {
  await Promise.all(everyLazy.map((get) => get()));
}
