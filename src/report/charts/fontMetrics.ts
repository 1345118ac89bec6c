import { readFileSync } from 'node:fs';

/**
 * Advance widths of a TrueType font's characters, read from its `cmap` (format 4, the
 * Basic Multilingual Plane) and `hmtx` tables, in ems. Vega lays out labels and titles by
 * their width; without a canvas it guesses 0.8 em per character, which is half as wide
 * again as DejaVu Sans and leaves wide empty margins in the SVG and PNG.
 */
export interface FontMetrics {
  /** Width of `text` in pixels at `fontSize`, without kerning. */
  width(text: string, fontSize: number): number;
}

function table(font: Buffer, tag: string): number {
  const count = font.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16;
    if (font.toString('latin1', record, record + 4) === tag) return font.readUInt32BE(record + 8);
  }
  throw new Error(`font has no ${tag} table`);
}

/** Glyph index per code point from the first Windows Unicode (3, 1) subtable of format 4. */
function glyphIndex(font: Buffer): (codePoint: number) => number {
  const cmap = table(font, 'cmap');
  const subtables = font.readUInt16BE(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const record = cmap + 4 + i * 8;
    const subtable = cmap + font.readUInt32BE(record + 4);
    if (font.readUInt16BE(record) !== 3 || font.readUInt16BE(record + 2) !== 1 || font.readUInt16BE(subtable) !== 4) continue;
    const segments = font.readUInt16BE(subtable + 6) / 2;
    const ends = subtable + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const rangeOffsets = deltas + segments * 2;
    return (codePoint) => {
      for (let s = 0; s < segments; s++) {
        if (codePoint > font.readUInt16BE(ends + s * 2)) continue;
        const start = font.readUInt16BE(starts + s * 2);
        if (codePoint < start) return 0;
        const delta = font.readInt16BE(deltas + s * 2);
        const rangeOffset = font.readUInt16BE(rangeOffsets + s * 2);
        if (rangeOffset === 0) return (codePoint + delta) & 0xffff;
        const glyph = font.readUInt16BE(rangeOffsets + s * 2 + rangeOffset + (codePoint - start) * 2);
        return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
      }
      return 0;
    };
  }
  throw new Error('font has no Unicode (3, 1) format 4 cmap subtable');
}

export function readFontMetrics(path: string): FontMetrics {
  const font = readFileSync(path);
  const unitsPerEm = font.readUInt16BE(table(font, 'head') + 18);
  const metricsCount = font.readUInt16BE(table(font, 'hhea') + 34);
  const hmtx = table(font, 'hmtx');
  const glyph = glyphIndex(font);
  const ems = new Map<number, number>();
  const advance = (codePoint: number): number => {
    let em = ems.get(codePoint);
    if (em === undefined) {
      const index = Math.min(glyph(codePoint), metricsCount - 1);
      em = font.readUInt16BE(hmtx + index * 4) / unitsPerEm;
      ems.set(codePoint, em);
    }
    return em;
  };
  return {
    width(text, fontSize) {
      let em = 0;
      for (const char of text) em += advance(char.codePointAt(0) ?? 0);
      return em * fontSize;
    },
  };
}
