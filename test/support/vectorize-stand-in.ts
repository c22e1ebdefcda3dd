/**
 * Stands in for Cloudflare Vectorize, which has no local runtime: vectors by namespace, exact cosine
 * ranking, and a record of the query vectors it was sent. `failDeletes` makes that many next
 * deletes fail, like Vectorize when it is unavailable.
 */
export function vectorizeStandIn() {
  const stored = new Map<
    string,
    { id: string; values: number[]; namespace: string; metadata: Record<string, string> }
  >();
  const queries: number[][] = [];
  const cos = (a: number[], b: number[]) =>
    a.reduce((s, x, i) => s + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b) || 1);
  const faults = { failDeletes: 0 };
  return {
    stored,
    queries,
    faults,
    async upsert(vectors: { id: string; values: number[]; namespace: string; metadata: Record<string, string> }[]) {
      for (const v of vectors) stored.set(v.id, v);
    },
    async query(vector: number[], options: { topK: number; namespace: string }) {
      queries.push(vector);
      const matches = [...stored.values()]
        .filter((v) => v.namespace === options.namespace)
        .map((v) => ({ id: v.id, score: cos(vector, v.values), metadata: v.metadata }))
        .sort((a, b) => b.score - a.score)
        .slice(0, options.topK);
      return { matches, count: matches.length };
    },
    async getByIds(ids: string[]) {
      return ids.flatMap((id) => (stored.has(id) ? [stored.get(id)!] : []));
    },
    async deleteByIds(ids: string[]) {
      if (faults.failDeletes > 0 && faults.failDeletes--) throw new Error("Vectorize: 503 Service Unavailable");
      for (const id of ids) stored.delete(id);
    },
  };
}
