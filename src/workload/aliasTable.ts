/**
 * Walker's alias method (Vose's stable construction): O(1) sampling from any discrete
 * distribution with one uniform draw, on two typed arrays. Reference: M. D. Vose,
 * "A linear algorithm for generating random numbers with a given distribution",
 * IEEE Trans. Software Engineering 17(9), 1991.
 */
export class AliasTable {
  /** Per column, its probability and its alias side by side ([2i], [2i + 1]). */
  private readonly columns: Float64Array;
  /**
   * The same table in 4 bytes a column, a quarter of the memory a draw's uniformly chosen
   * column is read from: the alias in the low `aliasBits` bits, and above them the column's
   * probability rounded down to a multiple of 1 / levels. That level decides a draw exactly
   * unless the draw's fraction falls in the same 1 / levels step as the probability (1 draw
   * in `levels`); only then is `columns` read. A column of probability 1 is its own alias.
   */
  private readonly packed: Int32Array;
  private readonly aliasBits: number;
  private readonly aliasMask: number;
  private readonly levels: number;
  readonly size: number;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    if (n === 0) throw new RangeError('an alias table needs at least one weight');
    let total = 0;
    for (let i = 0; i < n; i++) {
      if (!(weights[i] >= 0)) throw new RangeError(`weight ${i} is ${weights[i]}; weights must be ≥ 0`);
      total += weights[i];
    }
    if (!(total > 0)) throw new RangeError('the weights add up to 0');
    this.size = n;
    const columns = new Float64Array(2 * n);
    this.columns = columns;
    const scaled = new Float64Array(n);
    const small = new Int32Array(n);
    const large = new Int32Array(n);
    let smallCount = 0;
    let largeCount = 0;
    for (let i = 0; i < n; i++) {
      scaled[i] = (weights[i] * n) / total;
      if (scaled[i] < 1) small[smallCount++] = i;
      else large[largeCount++] = i;
    }
    while (smallCount > 0 && largeCount > 0) {
      const less = small[--smallCount];
      const more = large[--largeCount];
      columns[2 * less] = scaled[less];
      columns[2 * less + 1] = more;
      scaled[more] = scaled[more] + scaled[less] - 1;
      if (scaled[more] < 1) small[smallCount++] = more;
      else large[largeCount++] = more;
    }
    // What is left has probability 1 up to rounding.
    while (largeCount > 0) columns[2 * large[--largeCount]] = 1;
    while (smallCount > 0) columns[2 * small[--smallCount]] = 1;
    let aliasBits = 1;
    while (2 ** aliasBits < n) aliasBits++;
    this.aliasBits = aliasBits;
    this.aliasMask = 2 ** this.aliasBits - 1;
    this.levels = 2 ** (32 - this.aliasBits);
    this.packed = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const probability = columns[2 * i];
      // probability × levels is exact (a power of two); a full column keeps level levels − 1 and falls back.
      const level = probability < 1 ? Math.floor(probability * this.levels) : this.levels - 1;
      const alias = probability < 1 ? columns[2 * i + 1] : i;
      this.packed[i] = (level * (this.aliasMask + 1) + alias) | 0;
    }
  }

  /** Maps one uniform draw u in [0, 1) to an index. */
  sample(u: number): number {
    const scaled = u * this.size;
    const column = Math.floor(scaled);
    const fraction = scaled - column;
    const entry = this.packed[column];
    // fraction × levels is exact, so these two tests give what `fraction < probability` gives.
    const step = fraction * this.levels;
    const level = entry >>> this.aliasBits;
    if (step < level) return column;
    if (step >= level + 1) return entry & this.aliasMask;
    const columns = this.columns;
    return fraction < columns[2 * column] ? column : columns[2 * column + 1];
  }
}
