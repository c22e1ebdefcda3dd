import { inBackground } from "./background";
import { logWarn } from "./log";

/**
 * A per-isolate memory of values read from D1, each kept for `ttlMs`. Used for what nearly every
 * request reads and rarely changes (API keys, access, assistants): the isolate that handles a change
 * forgets at once, other isolates within `ttlMs` (docs/decisions.md, "Per-isolate caches").
 * A value used in the second half of its time is read again in the background (`remember`), so a
 * key, assistant or member in steady use is never read on a request's way to the model.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; at: number }>();
  /** Bumped by every forget, so a load that was under way then is not remembered. */
  #generation = 0;
  /** Background reads under way, by key (one at a time per key). */
  readonly #refreshing = new Map<string, Promise<void>>();

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
  async remember<L extends V | undefined>(key: string, load: () => Promise<L>, now = Date.now()): Promise<L> {
    const hit = this.#entries.get(key);
    if (hit && now - hit.at < this.ttlMs) {
      if (now - hit.at >= this.ttlMs / 2) this.#refresh(key, load, now);
      return hit.value as L;
    }
    if (hit) this.#entries.delete(key);
    const generation = this.#generation;
    const value = await load();
    if (value !== undefined && generation === this.#generation) this.set(key, value, now);
    return value;
  }

  /**
   * Reads a value in use again, in the request's background (src/lib/background.ts: it does not
   * delay the request's call to the model or its first words): remembered as of when the read
   * started, so no value is served older than `ttlMs`; forgotten when it is no longer found (a
   * revoked key fails its very next request).
   */
  #refresh(key: string, load: () => Promise<V | undefined>, now: number) {
    if (this.#refreshing.has(key)) return;
    const generation = this.#generation;
    const done = inBackground(async () => {
      const value = await load();
      if (generation !== this.#generation) return;
      if (value === undefined) this.#entries.delete(key);
      else this.set(key, value, now);
    })
      .catch((err) => logWarn("cache refresh failed", { error: String(err) }))
      .finally(() => this.#refreshing.delete(key));
    this.#refreshing.set(key, done);
  }

  /** Once the background reads under way have ended (for tests). */
  async refreshed(): Promise<void> {
    await Promise.all(this.#refreshing.values());
  }

  /** A newer version of a remembered value, still forgotten when the first one read expires. */
  replace(key: string, value: V): void {
    const hit = this.#entries.get(key);
    if (hit) hit.value = value;
  }

  /** Forgets one value, and any read under way then (which may have read what was just changed). */
  forget(key: string): void {
    this.#generation++;
    this.#entries.delete(key);
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
