/**
 * The best `k` of `n` scored matches, for a page of search results: a bounded min-heap over indices
 * (the worst kept match on top), so ranking thousands of matches of a common word costs about one
 * comparison each and no allocation per match, instead of a full sort (decision 0110).
 */

/**
 * Indices `0 … n-1` of the `k` best matches, best first: higher `score` first, then lower `tie`
 * (the position in the listing's own order, so equal scores keep it, as a stable sort would).
 */
export function topByScore(
  score: ArrayLike<number>,
  tie: ArrayLike<number>,
  n: number,
  k: number,
): Int32Array {
  k = Math.max(0, Math.min(k, n));
  // worse(a, b): a ranks below b.
  const worse = (a: number, b: number): boolean =>
    score[a] < score[b] || (score[a] === score[b] && tie[a] > tie[b]);
  if (k * 4 >= n) {
    const all = new Int32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    all.sort((a, b) => score[b] - score[a] || tie[a] - tie[b]);
    return all.subarray(0, k);
  }
  const heap = new Int32Array(k);
  let size = 0;
  for (let i = 0; i < n; i++) {
    if (size < k) {
      // Sift up: the worst stays at the root.
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!worse(i, heap[p])) break;
        heap[c] = heap[p];
        c = p;
      }
      heap[c] = i;
    } else if (worse(heap[0], i)) {
      // Replace the root and sift down.
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        if (l >= k) break;
        const r = l + 1;
        const m = r < k && worse(heap[r], heap[l]) ? r : l;
        if (!worse(heap[m], i)) break;
        heap[c] = heap[m];
        c = m;
      }
      heap[c] = i;
    }
  }
  return heap.sort((a, b) => score[b] - score[a] || tie[a] - tie[b]);
}
