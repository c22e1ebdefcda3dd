/**
 * The best `k` (score, slot) pairs offered: a min-heap with the worst kept at the root, so n offers
 * cost O(n log k) and no list of every score is sorted. Used by the local vector scan and the
 * keyword index (durable-objects/vector-index.ts, src/services/knowledge/retrieval/keyword-index.ts).
 */
export class TopK {
  private scores: Float64Array;
  private slots: Int32Array;
  private n = 0;

  constructor(private k: number) {
    this.scores = new Float64Array(k);
    this.slots = new Int32Array(k);
  }

  get full() {
    return this.n === this.k;
  }

  /** The worst score kept (the k-th best once full). */
  get min() {
    return this.scores[0];
  }

  offer(score: number, slot: number) {
    let i: number;
    if (this.n < this.k) {
      // Sift up from the new leaf.
      for (i = this.n++; i > 0 && this.scores[(i - 1) >> 1] > score; i = (i - 1) >> 1) {
        this.scores[i] = this.scores[(i - 1) >> 1];
        this.slots[i] = this.slots[(i - 1) >> 1];
      }
    } else if (score > this.scores[0]) {
      // Replace the root (the worst kept) and sift down.
      for (i = 0; 2 * i + 1 < this.n; ) {
        const left = 2 * i + 1;
        const child = left + 1 < this.n && this.scores[left + 1] < this.scores[left] ? left + 1 : left;
        if (this.scores[child] >= score) break;
        this.scores[i] = this.scores[child];
        this.slots[i] = this.slots[child];
        i = child;
      }
    } else return;
    this.scores[i] = score;
    this.slots[i] = slot;
  }

  /** Best first; equal scores by slot. */
  sorted(): { score: number; slot: number }[] {
    return Array.from({ length: this.n }, (_, i) => ({ score: this.scores[i], slot: this.slots[i] })).sort(
      (x, y) => y.score - x.score || x.slot - y.slot,
    );
  }
}
