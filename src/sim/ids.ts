/**
 * Branded numbers for the flow's long parameter lists (issue 24, "nine-number parameter
 * lists"): a key passed where an object id is expected, or a derived instant where the
 * clock's reading is expected, compiles as plain numbers and changes a hit ratio; with these
 * types it does not. The brands exist only for the type checker: at run time each is the
 * number it was, with no wrapper, no check and no cost on the hot path (DESIGN "Hot path").
 *
 * A value gets its brand where it is made (the workload's request at the flow's door, the
 * simulated clock, a table's row): `as KeyId` there and nowhere else. Arithmetic on a
 * branded number gives a plain number again, so a key plus a chunk index must be branded
 * anew, deliberately.
 */
declare const brand: unique symbol;
type Brand<Name extends string> = number & { readonly [brand]: Name };

/** A cache key id: the entry a node stores (an object, a variant, or one 5 MB chunk, spec 4.4, 4.5, 4.8). */
export type KeyId = Brand<'KeyId'>;
/** A dense object id of the catalogue (what the origin versions and the class table is indexed by). */
export type ObjectId = Brand<'ObjectId'>;
/** A response class: the row of the compiled decision table (spec 4.2's profiles and their headers). */
export type ClassId = Brand<'ClassId'>;
/** A node's index within its layer: a PoP among the edges, or a site among the regional sites. */
export type NodeIndex = Brand<'NodeIndex'>;
/** A row of the flow's fetch table: one fetch in flight. */
export type FetchId = Brand<'FetchId'>;
/**
 * A reading of the simulated clock, ms: the moment an event happens ("now"), made only by
 * the clock (Simulation.nowMs) and by a request's send time. Instants derived by arithmetic
 * (a response time, an expiry) stay plain numbers: they may go where a number is asked, but
 * not where the clock's reading is, so a swapped nowMs and responseAtMs does not compile.
 */
export type SimMs = Brand<'SimMs'>;
