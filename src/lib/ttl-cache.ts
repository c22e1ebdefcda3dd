/**
 * A per-isolate memory of values read from D1, each kept for `ttlMs`. Used for what nearly every
 * request reads and rarely changes (API keys, access, assistants): the isolate that handles a change
 * forgets at once, other isolates within `ttlMs` (docs/decisions.md, "Per-isolate caches").
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; at: number }>();
  /** Bumped by every forget, so a load that was under way then is not remembered. */
  #generation = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const hit = this.#entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    if (hit) this.#entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, at: now });
  }

  /**
   * The remembered value, else `load`'s: remembered as of the time the load started, and not at all
   * when it is undefined (nothing found) or something was forgotten meanwhile (the load may have
   * read what was just changed).
   */
  async remember<L extends V | undefined>(key: string, load: () => Promise<L>): Promise<L> {
    const now = Date.now();
    const hit = this.get(key, now);
    if (hit !== undefined) return hit as L;
    const generation = this.#generation;
    const value = await load();
    if (value !== undefined && generation === this.#generation) this.set(key, value, now);
    return value;
  }

  /** A newer version of a remembered value, still forgotten when the first one read expires. */
  replace(key: string, value: V): void {
    const hit = this.#entries.get(key);
    if (hit) hit.value = value;
  }

  deleteWhere(matches: (value: V) => boolean): void {
    this.#generation++;
    for (const [key, { value }] of this.#entries) if (matches(value)) this.#entries.delete(key);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

const settingsCaches = new Set<TtlCache<unknown>>();

/**
 * A cache of settings (assistants, models, organization switches) that any API write other than
 * conversation traffic may change: `forgetSettings` clears them all (`forgetOnWrite` in app.ts).
 */
export function settingsCache<V>(ttlMs = 2_000): TtlCache<V> {
  const cache = new TtlCache<V>(ttlMs);
  settingsCaches.add(cache as TtlCache<unknown>);
  return cache;
}

export function forgetSettings(): void {
  for (const cache of settingsCaches) cache.clear();
}
