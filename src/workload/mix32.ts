/**
 * murmur3's 32-bit finaliser over (a, b): a well-spread 32-bit hash of two 32-bit words, for
 * hash tables keyed by ids (IdInterner) and deterministic per-id choices (ClassCatalogue).
 */
export function mix32(a: number, b: number): number {
  let h = (a ^ Math.imul(b ^ (b >>> 16), 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
