import { ignoredParameters, KEEP_QUERY, queryKeyPart, type QueryHandling } from '../../policy/queryHandling.js';
import type { RandomStream } from '../../sim/random.js';
import { FUNCTIONAL_PARAMETERS, type QuerySpec } from '../content/querySchema.js';
import { IdInterner } from '../idInterner.js';
import type { ClientRequest } from '../request.js';

/** What QueryKeys needs of one content class: its query strings (none: undefined). */
export interface QueryClass {
  readonly queries?: QuerySpec;
}

/** A class's query shapes under one handling: shape → first query part number (0: the bare path's key), and whether the tracking value adds to it. */
interface ShapeTable {
  readonly numbers: Int32Array;
  readonly valueInKey: Uint8Array;
}

/** Values of the functional `sort` parameter, by variant. */
const SORT_ORDERS = ['relevance', 'price', 'newest'] as const;

/** Largest key id a cache store takes (Int32 key arrays, as RequestKeys). */
const MAX_KEYS = 2 ** 31 - 1;

/**
 * The part number that pairs a key with its URL in the other parameter order, a browser-only
 * key (see keyRequest). Query parts are numbered from 1, so no CDN key pairs with 0.
 */
const OTHER_SPELLING = 0;

/** Largest query part number: the high half of an IdInterner pair. */
const MAX_PART_NUMBER = 2 ** 32 - 2;

/** Query shapes of one class: variants × 2 orders × (no tracking + each tracking parameter); the tracking value comes on top. */
export function queryShapes(spec: QuerySpec): number {
  return spec.variants * 2 * (1 + spec.tracking.length);
}

/**
 * The query string (no `?`) a request sends: `page=<variant + 1>&sort=<order>`, the two
 * swapped when `reordered`, and, when `tracking` ≥ 0, the tracking parameter of that index
 * as `<name>=v<value>` last (first when reordered).
 */
export function queryText(spec: QuerySpec, variant: number, reordered: boolean, tracking: number, value: number): string {
  const [page, sort] = FUNCTIONAL_PARAMETERS;
  const order = SORT_ORDERS[variant % SORT_ORDERS.length];
  const functional = reordered ? `${sort}=${order}&${page}=${variant + 1}` : `${page}=${variant + 1}&${sort}=${order}`;
  if (tracking < 0) return functional;
  const parameter = `${spec.tracking[tracking]}=v${value}`;
  return reordered ? `${parameter}&${functional}` : `${functional}&${parameter}`;
}

/**
 * Query strings on the synthetic workload's requests (spec 4.3.1), as cache key ids. Per
 * request of a class with `queries` it draws, from its own stream (`workload.queries`),
 * whether the request carries a query and which one (variant, order, tracking parameter and
 * value), and replaces the request's key by the key of (its key, the query's part of the
 * cache key).
 *
 * No string is built per request. Before the run, every query shape of a class (variant,
 * order, tracking parameter) is turned into its cache key part through the policy engine
 * (`queryKeyPart`: the handling's ignored parameters removed, then 4.3.1's sorting), with
 * two tracking values: when the engine gives them different parts, the value is in the
 * key (4.3.1 keeps a segment byte for byte), and the shape gets a block of
 * `trackingValues` part numbers, one per value; otherwise one number. A table per class maps
 * shape → first part number (0: nothing left, the bare path's key) and whether the value
 * adds to it. A request then costs a few draws, two table reads and one typed-array hash
 * lookup (IdInterner) of (key, part number) → a dense key id after the run's other keys.
 *
 * The handling is a per-class table switchable at any simulated time (setQueryHandling):
 * a switch rebuilds (or reuses) the class's shape table, and since part numbers are
 * shared, a key is the same cache entry whichever handling made it: switching from `keep`
 * to `strip-tracking` makes tracked requests hit the copies untracked requests left.
 *
 * Range requests (spec 4.8, media chunks) carry no query: players ask for the media URL.
 *
 * The order of the two functional parameters never changes the CDN's key (4.3.1 sorts
 * them), but a browser cache keys the exact URL: a client's query in the other order
 * (`traffic.clients.queryReorderShare`, which decides the order of a client's requests in
 * place of the class's `reordered`) gets a browser-only key (`otherSpellingKey`), so the
 * browser misses on one spelling while the CDN serves it from the other's copy. Likewise a
 * parameter the CDN's handling leaves out (`strip-tracking`, `ignore`) is still in the
 * browser's key: browsers answer the same requests whatever the CDN's query handling.
 */
export class QueryKeys {
  private readonly share: Float64Array;
  private readonly variants: Int32Array;
  private readonly reorderShare: Float64Array;
  private readonly trackingShare: Float64Array;
  private readonly trackingNames: Int32Array;
  private readonly trackingValues: Int32Array;
  /** Per class: shape → first query part number under the class's current handling; null without queries. */
  private readonly tables: (Int32Array | null)[];
  /** Per class: shape → 1 when the tracking value is part of the key (add it to the part number). */
  private readonly valueInKey: (Uint8Array | null)[];
  private readonly handlings: QueryHandling[];
  /** Per class: tables already built, by handling (JSON), so switching back costs nothing. */
  private readonly builtTables: Map<string, ShapeTable>[];
  /** Per class: its table under `keep`, the browser's (exact URL) keys; null until a browser needs it. */
  private readonly exactUrlTables: (ShapeTable | null)[];
  /**
   * Per class: query key part → its number, shared by the class's handlings; a part whose
   * tracking value is in the key is named with value 0 and owns trackingValues numbers from
   * there. (Classes never share a key: the key id pairs the number with an object's key.)
   */
  private readonly partNumbers: Map<string, number>[];
  private readonly nextPartNumber: Float64Array;
  private readonly keyIds = new IdInterner(1 << 12);
  /** Ids of keyIds that are browser keys of the other parameter order, not CDN keys. */
  private otherSpellings = 0;

  /**
   * @param classes per class index (as `classOfId` holds them)
   * @param classOfId class index of each object id
   * @param baseKeyCount keys of the run without queries (RequestKeys.keyCount, or the object
   *   count when the key is the object id): query keys are numbered after them
   */
  constructor(
    private readonly classes: readonly QueryClass[],
    private readonly classOfId: Uint8Array,
    private readonly baseKeyCount: number,
    private readonly stream: RandomStream,
  ) {
    const of = (value: (spec: QuerySpec) => number) => classes.map((klass) => (klass.queries === undefined ? 0 : value(klass.queries)));
    this.share = Float64Array.from(of((spec) => spec.share));
    this.variants = Int32Array.from(of((spec) => spec.variants));
    this.reorderShare = Float64Array.from(of((spec) => spec.reorderShare));
    this.trackingShare = Float64Array.from(of((spec) => spec.trackingShare));
    this.trackingNames = Int32Array.from(of((spec) => spec.tracking.length));
    this.trackingValues = Int32Array.from(of((spec) => spec.trackingValues));
    this.tables = classes.map(() => null);
    this.valueInKey = classes.map(() => null);
    this.handlings = classes.map((klass) => klass.queries?.handling ?? { kind: 'keep' });
    this.builtTables = classes.map(() => new Map());
    this.exactUrlTables = classes.map(() => null);
    this.partNumbers = classes.map(() => new Map());
    this.nextPartNumber = new Float64Array(classes.length).fill(1);
    classes.forEach((klass, c) => {
      if (klass.queries !== undefined) this.setQueryHandling(c, klass.queries.handling);
    });
  }

  /** Whether class `classIndex` sends query strings (has `queries`). */
  hasQueries(classIndex: number): boolean {
    return this.classes[classIndex]?.queries !== undefined;
  }

  /** The handling class `classIndex`'s keys follow now. */
  queryHandling(classIndex: number): QueryHandling {
    return this.handlings[classIndex];
  }

  /**
   * From now on, class `classIndex`'s requests are keyed under `handling` (read when each
   * request's key is formed). O(query shapes) the first time a handling is set for the class,
   * then O(1). Throws RangeError for a class without `queries`.
   */
  setQueryHandling(classIndex: number, handling: QueryHandling): void {
    const klass = this.classes[classIndex];
    if (klass?.queries === undefined) throw new RangeError(`content class ${classIndex} has no queries: its requests carry no query string to key`);
    const built = this.tableFor(classIndex, klass.queries, handling);
    this.tables[classIndex] = built.numbers;
    this.valueInKey[classIndex] = built.valueInKey;
    this.handlings[classIndex] = handling;
  }

  /** Class `classIndex`'s table under `handling`: built the first time, then reused. */
  private tableFor(classIndex: number, spec: QuerySpec, handling: QueryHandling): ShapeTable {
    const name = JSON.stringify(handling);
    let built = this.builtTables[classIndex].get(name);
    if (built === undefined) {
      built = this.buildTable(classIndex, spec, ignoredParameters(handling, spec.tracking));
      this.builtTables[classIndex].set(name, built);
    }
    return built;
  }

  private buildTable(classIndex: number, spec: QuerySpec, ignored: ReadonlySet<string>): ShapeTable {
    const partNumbers = this.partNumbers[classIndex];
    const numbers = new Int32Array(queryShapes(spec));
    const valueInKey = new Uint8Array(numbers.length);
    const slots = 1 + spec.tracking.length;
    for (let shape = 0; shape < numbers.length; shape++) {
      const tracking = (shape % slots) - 1;
      const variant = Math.floor(shape / slots / 2);
      const reordered = Math.floor(shape / slots) % 2 === 1;
      const part = queryKeyPart(queryText(spec, variant, reordered, tracking, 0), ignored);
      if (part === '') continue;
      const valued = tracking >= 0 && spec.trackingValues > 1 && queryKeyPart(queryText(spec, variant, reordered, tracking, 1), ignored) !== part;
      let number = partNumbers.get(part);
      if (number === undefined) {
        number = this.nextPartNumber[classIndex];
        this.nextPartNumber[classIndex] += valued ? spec.trackingValues : 1;
        if (this.nextPartNumber[classIndex] > MAX_PART_NUMBER) throw new RangeError(`more than ${MAX_PART_NUMBER} query key parts in one class; use fewer tracking values or variants`);
        partNumbers.set(part, number);
      }
      numbers[shape] = number;
      valueInKey[shape] = valued ? 1 : 0;
    }
    return { numbers, valueInKey };
  }

  /** Distinct query keys requests have used so far (cache entries beyond the run's other keys; browser-only spellings not counted). */
  get queryKeyCount(): number {
    return this.keyIds.size - this.otherSpellings;
  }

  /**
   * Draws whether `request` carries a query and, if its key part is not the bare path's,
   * moves its key to the (key, part) key; a client's request also gets its browser key when
   * the exact URL is not the CDN's key (keyExactUrl). Whole-object requests of classes with queries only; five draws per query
   * request whatever the handling and the client, so every handling sees the same queries.
   */
  keyRequest(request: ClientRequest): void {
    if (request.firstChunk >= 0) return;
    const c = this.classOfId[request.objectId];
    const share = this.share[c];
    if (share === 0) return;
    const stream = this.stream;
    if (stream.next() >= share) return;
    const variant = stream.int(this.variants[c]);
    const drawnOrder = stream.next() < this.reorderShare[c] ? 1 : 0;
    // A client of traffic.clients sends its own order (queryReorderShare); the draw is made
    // either way so that the stream stays aligned. Both orders have one key part (4.3.1).
    const reordered = request.clientSlot >= 0 ? request.queryReordered : drawnOrder;
    const tracked = stream.next() < this.trackingShare[c];
    const names = this.trackingNames[c];
    const values = this.trackingValues[c];
    const name = stream.int(names > 0 ? names : 1);
    const value = stream.int(values);
    const shape = (variant * 2 + reordered) * (1 + names) + (tracked ? 1 + name : 0);
    const pathKey = request.key;
    const first = (this.tables[c] as Int32Array)[shape];
    if (first !== 0) {
      const part = (this.valueInKey[c] as Uint8Array)[shape] === 1 ? first + value : first;
      request.key = this.keyId(pathKey, part);
    }
    if (request.clientSlot >= 0) this.keyExactUrl(request, c, pathKey, shape, value, reordered);
  }

  /**
   * A browser cache is keyed by the exact URL (spec 4.9 layer 1), whatever the CDN leaves
   * out of its key: every parameter the client sent, in the order sent. So the browser's key
   * is the key `keep` gives this query shape and value (the CDN's own key when the class
   * keeps every parameter), and the other parameter order, which 4.3.1 sorts into the same
   * CDN key, is an entry of its own there. Sets `otherSpellingKey` when it differs from the
   * CDN's key (browserKeyOf reads it).
   */
  private keyExactUrl(request: ClientRequest, c: number, pathKey: number, shape: number, value: number, reordered: number): void {
    const before = this.keyIds.size;
    let exactKey = request.key;
    if (this.handlings[c].kind !== 'keep') {
      const exact = this.exactUrlTables[c] ?? this.buildExactUrlTable(c);
      const first = exact.numbers[shape];
      exactKey = first === 0 ? pathKey : this.keyId(pathKey, exact.valueInKey[shape] === 1 ? first + value : first);
    }
    if (reordered === 1) exactKey = this.keyId(exactKey, OTHER_SPELLING);
    if (exactKey !== request.key) request.otherSpellingKey = exactKey;
    this.otherSpellings += this.keyIds.size - before;
  }

  /** Class c's table under `keep` (every parameter in the key), kept for later requests: only the first browser request of a class that leaves parameters out builds it. */
  private buildExactUrlTable(c: number): ShapeTable {
    const exact = this.tableFor(c, this.classes[c].queries as QuerySpec, KEEP_QUERY);
    this.exactUrlTables[c] = exact;
    return exact;
  }

  /** The dense key id of (key, query part number) after the run's other keys. */
  private keyId(key: number, part: number): number {
    const id = this.baseKeyCount + this.keyIds.intern(key, part);
    if (id > MAX_KEYS) throw new RangeError(`the run needs more than ${MAX_KEYS} cache keys with its query strings; use fewer tracking values or variants`);
    return id;
  }
}
