/** A count per simulated second, growing with the run (one number a second: a week is 4.8 MB). */
export class PerSecondCounter {
  private counts = new Float64Array(1024);
  private seconds = 0;

  record(timeMs: number): void {
    const second = Math.floor(timeMs / 1000);
    if (second < 0) return;
    if (second >= this.counts.length) {
      let length = this.counts.length;
      while (length <= second) length *= 2;
      const next = new Float64Array(length);
      next.set(this.counts);
      this.counts = next;
    }
    this.counts[second]++;
    if (second >= this.seconds) this.seconds = second + 1;
  }

  /** Events in [fromMs, toMs), counted by whole seconds (the window's ends are rounded down to seconds). */
  between(fromMs: number, toMs: number): number {
    const from = Math.max(0, Math.floor(fromMs / 1000));
    const to = Math.min(this.seconds, Math.floor(toMs / 1000));
    let total = 0;
    for (let s = from; s < to; s++) total += this.counts[s];
    return total;
  }
}
