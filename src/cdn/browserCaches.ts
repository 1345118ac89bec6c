/**
 * The browser layer (spec 4.9 layer 1): one private cache per client of the population, in
 * typed arrays indexed by client slot. A browser keeps what the policy engine's browser
 * decision lets it store (private-cache rules, RFC 9111; `s-maxage` does not apply), fresh
 * for its lifetime less the age the response had when it left the CDN (RFC 9111 §4.2.3).
 *
 * Each browser holds its `entriesPerClient` most recently stored keys (a ring: the oldest
 * goes first). Real browser caches hold hundreds of MB, far more than one site's pages
 * need, so what limits reuse here is freshness and the ring length, which is the client's
 * recent-object memory (traffic.clients.recentObjects) that repeats draw from.
 */
export class BrowserCaches {
  private readonly keys: Int32Array;
  private readonly expiresAtMs: Float64Array;
  private readonly next: Uint8Array;

  constructor(
    readonly clients: number,
    readonly entriesPerClient: number,
  ) {
    if (!(Number.isSafeInteger(entriesPerClient) && entriesPerClient >= 1 && entriesPerClient <= 255)) {
      throw new RangeError(`entriesPerClient must be a whole number from 1 to 255, got ${entriesPerClient}`);
    }
    this.keys = new Int32Array(clients * entriesPerClient).fill(-1);
    this.expiresAtMs = new Float64Array(clients * entriesPerClient);
    this.next = new Uint8Array(clients);
  }

  /** Empties a client's cache: a new client took the slot. */
  clear(client: number): void {
    const base = client * this.entriesPerClient;
    this.keys.fill(-1, base, base + this.entriesPerClient);
    this.next[client] = 0;
  }

  /** Whether the client's browser holds `key` fresh at `nowMs`. */
  lookup(client: number, key: number, nowMs: number): boolean {
    const base = client * this.entriesPerClient;
    for (let i = base; i < base + this.entriesPerClient; i++) {
      if (this.keys[i] === key) return this.expiresAtMs[i] > nowMs;
    }
    return false;
  }

  /** Stores (or refreshes) `key` in the client's browser until `expiresAtMs`. */
  insert(client: number, key: number, expiresAtMs: number): void {
    const base = client * this.entriesPerClient;
    for (let i = base; i < base + this.entriesPerClient; i++) {
      if (this.keys[i] === key) {
        this.expiresAtMs[i] = expiresAtMs;
        return;
      }
    }
    const slot = this.next[client];
    this.keys[base + slot] = key;
    this.expiresAtMs[base + slot] = expiresAtMs;
    this.next[client] = slot + 1 === this.entriesPerClient ? 0 : slot + 1;
  }
}
