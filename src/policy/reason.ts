/**
 * One rule that fired while the engine reached a decision, with where the rule comes from:
 * a section of the service's spec (`spec 4.1.2`), an RFC clause (`RFC 9111 §5.2.2.5`), or
 * a documented reading of ours (`cdnsim reading: …`, see docs/policy-engine.md).
 */
export interface PolicyReason {
  /** Where the rule is written, e.g. "spec 7.1" or "RFC 9111 §4.2.1". */
  readonly source: string;
  /** What the rule said about this request/response, in one sentence. */
  readonly rule: string;
}

export function reason(source: string, rule: string): PolicyReason {
  return { source, rule };
}

/** "rule (source)", the form `explain` prints and `--json` carries in `reasons`. */
export function formatReason(entry: PolicyReason): string {
  return `${entry.rule} (${entry.source})`;
}
