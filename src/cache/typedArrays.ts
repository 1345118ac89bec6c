/**
 * Growing the per-key typed arrays of the stores. Keys are dense ids, so a store sizes its
 * arrays to the expected key space and doubles them on the rare key beyond it (amortised
 * O(1), and no allocation at all on the steady-state path).
 */

/** The smallest power-of-two multiple of `current` that is at least `minimum`. */
export function grownLength(current: number, minimum: number): number {
  let length = Math.max(1, current);
  while (length < minimum) length *= 2;
  return length;
}

export function growInt32(array: Int32Array, length: number, fill: number): Int32Array {
  const grown = new Int32Array(length);
  if (fill !== 0) grown.fill(fill, array.length);
  grown.set(array);
  return grown;
}

export function growFloat64(array: Float64Array, length: number, fill: number): Float64Array {
  const grown = new Float64Array(length);
  if (fill !== 0) grown.fill(fill, array.length);
  grown.set(array);
  return grown;
}

export function growUint8(array: Uint8Array, length: number): Uint8Array {
  const grown = new Uint8Array(length);
  grown.set(array);
  return grown;
}
