import type { JsonToken } from './jsonToken.js';

/**
 * Paths inside an entry whose values are dropped while assembling: the response and
 * request bodies and Chrome's initiator stacks and WebSocket frames, which can be megabytes
 * and are never read.
 */
const DROPPED_PATHS = new Set(['response.content.text', 'request.postData.text', '_initiator', '_webSocketMessages']);
const DROPPED_MAX_DEPTH = 3;

/** Builds one JSON value from tokens, as JSON.parse would, less the dropped paths. */
export class EntryAssembler {
  value: unknown;
  private readonly containers: Array<Record<string, unknown> | unknown[]> = [];
  /** For each open container, the key it sits under in its parent ('' for the entry, '[]' in arrays). */
  private readonly paths: string[] = [];
  /** The key of the next value in the innermost object; saved per level while a child is open. */
  private key: string | undefined;
  private readonly savedKeys: Array<string | undefined> = [];
  private chunks: string[] = [];
  /** > 0 inside a dropped container: its depth. */
  private droppedDepth = 0;
  private droppingString = false;
  private done = false;

  /** Feeds one token; true when the value is complete. */
  push(token: JsonToken): boolean {
    if (this.droppedDepth > 0) {
      if (token.name === 'startObject' || token.name === 'startArray') this.droppedDepth++;
      else if ((token.name === 'endObject' || token.name === 'endArray') && --this.droppedDepth === 0) this.done = this.containers.length === 0;
      return this.done;
    }
    if (this.droppingString) {
      if (token.name === 'endString') this.droppingString = false;
      return this.done;
    }
    switch (token.name) {
      case 'keyValue':
        this.key = token.value as string;
        break;
      case 'startObject':
      case 'startArray': {
        if (this.dropsNext()) {
          this.droppedDepth = 1;
          break;
        }
        const container: Record<string, unknown> | unknown[] = token.name === 'startArray' ? [] : {};
        this.paths.push(this.containers.length === 0 ? '' : (this.key ?? '[]'));
        this.store(container);
        this.containers.push(container);
        this.savedKeys.push(this.key);
        this.key = undefined;
        break;
      }
      case 'endObject':
      case 'endArray':
        this.containers.pop();
        this.paths.pop();
        this.key = this.savedKeys.pop();
        this.done = this.containers.length === 0;
        break;
      case 'startString':
        if (this.dropsNext()) this.droppingString = true;
        else this.chunks = [];
        break;
      case 'stringChunk':
        this.chunks.push(token.value as string);
        break;
      case 'endString':
        this.scalar(this.chunks.length === 1 ? this.chunks[0] : this.chunks.join(''));
        this.chunks = [];
        break;
      case 'numberValue':
        if (!this.dropsNext()) this.scalar(Number(token.value));
        break;
      default:
        // trueValue, falseValue, nullValue
        if (!this.dropsNext()) this.scalar(token.value);
    }
    return this.done;
  }

  private scalar(value: unknown): void {
    this.store(value);
    this.done = this.containers.length === 0;
  }

  /** Puts a value into the innermost container (or makes it the value). */
  private store(value: unknown): void {
    const parent = this.containers[this.containers.length - 1];
    if (parent === undefined) this.value = value;
    else if (Array.isArray(parent)) parent.push(value);
    // defineProperty: a "__proto__" key in the file must be a field, not a prototype.
    else if (this.key === '__proto__') Object.defineProperty(parent, this.key, { value, enumerable: true, writable: true, configurable: true });
    else parent[this.key as string] = value;
  }

  private dropsNext(): boolean {
    const depth = this.containers.length;
    if (depth === 0 || depth > DROPPED_MAX_DEPTH || this.key === undefined || Array.isArray(this.containers[depth - 1])) return false;
    let path = '';
    for (let i = 1; i < depth; i++) path += `${this.paths[i]}.`;
    return DROPPED_PATHS.has(path + this.key);
  }
}

