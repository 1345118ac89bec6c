/** A stream-json token (Parser with packed keys and numbers, streamed strings). */
export interface JsonToken {
  name: string;
  value?: unknown;
}
