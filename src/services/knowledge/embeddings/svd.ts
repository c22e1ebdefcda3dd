import { prng } from "../../../lib/random";

/**
 * Truncated singular value decomposition of a sparse matrix by the randomized range finder (Halko,
 * Martinsson and Tropp, 2011): a seeded random projection, a few power iterations, then the exact
 * SVD of the small projected matrix through the eigenvectors of its Gram matrix (Jacobi). Plain
 * typed-array loops: it runs in workerd, deterministic for a given input and seed.
 */

/** A terms x documents matrix stored by document: each column's row indices and values. */
export interface SparseColumns {
  rows: number;
  columns: { index: Int32Array; value: Float64Array }[];
}

export interface TruncatedSvd {
  /** Left singular vectors, rows x k, row-major. */
  u: Float64Array;
  k: number;
  /** Singular values, largest first. */
  sigma: number[];
}

/** A (rows x docs) times M (docs x r): rows x r. */
function times(a: SparseColumns, m: Float64Array, r: number): Float64Array {
  const out = new Float64Array(a.rows * r);
  a.columns.forEach(({ index, value }, d) => {
    for (let k = 0; k < index.length; k++) {
      const o = index[k] * r;
      const w = value[k];
      for (let j = 0; j < r; j++) out[o + j] += w * m[d * r + j];
    }
  });
  return out;
}

/** A^T (docs x rows) times M (rows x r): docs x r. */
function transposeTimes(a: SparseColumns, m: Float64Array, r: number): Float64Array {
  const out = new Float64Array(a.columns.length * r);
  a.columns.forEach(({ index, value }, d) => {
    const o = d * r;
    for (let k = 0; k < index.length; k++) {
      const i = index[k] * r;
      const w = value[k];
      for (let j = 0; j < r; j++) out[o + j] += w * m[i + j];
    }
  });
  return out;
}

/** Orthonormal columns in place (modified Gram-Schmidt, re-orthogonalised once). */
function orthonormalize(m: Float64Array, n: number, r: number) {
  for (let j = 0; j < r; j++) {
    for (let pass = 0; pass < 2; pass++) {
      for (let p = 0; p < j; p++) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += m[i * r + j] * m[i * r + p];
        for (let i = 0; i < n; i++) m[i * r + j] -= dot * m[i * r + p];
      }
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += m[i * r + j] ** 2;
    norm = Math.sqrt(norm);
    for (let i = 0; i < n; i++) m[i * r + j] = norm > 1e-12 ? m[i * r + j] / norm : 0;
  }
}

/** Eigenvalues and eigenvectors (columns of `vectors`) of a symmetric n x n matrix, by cyclic Jacobi rotations. */
export function symmetricEigen(matrix: Float64Array, n: number): { values: number[]; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale += a[i] * a[i];
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off <= 1e-22 * scale || off === 0) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p],
            akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k],
            aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p],
            vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Array.from({ length: n }, (_, i) => a[i * n + i]), vectors: v };
}

/** The k leading left singular vectors and values of `a` (k is capped by its rank bounds). */
export function truncatedSvd(
  a: SparseColumns,
  k: number,
  { oversample = 10, powerIterations = 2, seed = 1 } = {},
): TruncatedSvd {
  const docs = a.columns.length;
  k = Math.max(0, Math.min(k, a.rows, docs));
  const r = Math.min(k + oversample, a.rows, docs);
  if (k === 0 || r === 0) return { u: new Float64Array(0), k: 0, sigma: [] };
  const rand = prng(seed);
  const omega = new Float64Array(docs * r).map(() => rand() * 2 - 1);
  let y = times(a, omega, r);
  orthonormalize(y, a.rows, r);
  for (let i = 0; i < powerIterations; i++) {
    const z = transposeTimes(a, y, r);
    orthonormalize(z, docs, r);
    y = times(a, z, r);
    orthonormalize(y, a.rows, r);
  }
  // B = Q^T A (r x docs), held transposed; its left singular vectors are the eigenvectors of B B^T.
  const bt = transposeTimes(a, y, r);
  const gram = new Float64Array(r * r);
  for (let d = 0; d < docs; d++) {
    for (let i = 0; i < r; i++) {
      const bi = bt[d * r + i];
      if (bi !== 0) for (let j = 0; j < r; j++) gram[i * r + j] += bi * bt[d * r + j];
    }
  }
  const { values, vectors } = symmetricEigen(gram, r);
  const order = values
    .map((value, i) => ({ value, i }))
    .sort((x, z) => z.value - x.value || x.i - z.i)
    .slice(0, k);
  const u = new Float64Array(a.rows * k);
  for (let t = 0; t < a.rows; t++) {
    for (let c = 0; c < k; c++) {
      const col = order[c].i;
      let s = 0;
      for (let i = 0; i < r; i++) s += y[t * r + i] * vectors[i * r + col];
      u[t * k + c] = s;
    }
  }
  return { u, k, sigma: order.map((o) => Math.sqrt(Math.max(0, o.value))) };
}
