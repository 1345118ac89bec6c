/**
 * Header fields at the policy engine's boundary. Names are case-insensitive (RFC 9110 §5.1),
 * so they are lower-cased once here; repeated field lines are combined into one
 * comma-separated value in order (RFC 9110 §5.3), which is how every list-based header the
 * engine reads (Cache-Control, Vary, Age, Expires …) is meant to be read.
 */
export type HeaderFields = ReadonlyMap<string, string>;

/** What callers may pass: a plain object, or name/value pairs (repeats allowed, in order). */
export type HeaderInput = Readonly<Record<string, string | number | readonly string[]>> | Iterable<readonly [string, string]>;

export const NO_HEADERS: HeaderFields = new Map();

export function normaliseHeaders(input: HeaderInput | HeaderFields | undefined): HeaderFields {
  if (input === undefined) return NO_HEADERS;
  const fields = new Map<string, string>();
  const add = (name: string, value: string): void => {
    const key = name.trim().toLowerCase();
    const previous = fields.get(key);
    fields.set(key, previous === undefined ? value.trim() : `${previous}, ${value.trim()}`);
  };
  if (isIterable(input)) {
    for (const [name, value] of input) add(name, String(value));
  } else {
    for (const [name, value] of Object.entries(input)) {
      if (Array.isArray(value)) for (const item of value) add(name, String(item));
      else add(name, String(value));
    }
  }
  return fields;
}

function isIterable(input: object): input is Iterable<readonly [string, string]> {
  return typeof (input as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

/** The combined value of a field, or undefined when absent. `name` must be lower case. */
export function headerValue(fields: HeaderFields, name: string): string | undefined {
  return fields.get(name);
}

/**
 * Splits a list-based field value on commas outside quoted strings (RFC 9110 §5.6.1),
 * dropping empty members. Quoted strings keep their quotes; callers unquote.
 */
export function splitList(value: string): string[] {
  const members: string[] = [];
  let start = 0;
  let inQuotes = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (inQuotes) {
      if (char === '\\') i++;
      else if (char === '"') inQuotes = false;
    } else if (char === '"') inQuotes = true;
    else if (char === ',') {
      const member = value.slice(start, i).trim();
      if (member) members.push(member);
      start = i + 1;
    }
  }
  const last = value.slice(start).trim();
  if (last) members.push(last);
  return members;
}

/** The content of a quoted-string with its backslash escapes resolved (RFC 9110 §5.6.4). */
export function unquote(value: string): string {
  if (value.length < 2 || value[0] !== '"' || value[value.length - 1] !== '"') return value;
  return value.slice(1, -1).replace(/\\(.)/g, '$1');
}
