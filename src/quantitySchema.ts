import { z } from 'zod';
import type { Parsed } from './units.js';

/**
 * A zod schema for a quantity written with human units (`5MB`, `250ms`, `35%`) or as a
 * number: `parse` (from units.ts) turns it into base units, and a value it refuses becomes
 * an issue saying what was expected. Shared by the scenario and topology schemas.
 */
export function quantity(parse: (input: unknown) => Parsed, expected: string, description: string) {
  return z
    .union([z.string(), z.number()], { error: `expected ${expected}` })
    .transform((input, ctx) => {
      const parsed = parse(input);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: `expected ${parsed.expected}` });
        return z.NEVER;
      }
      return parsed.value;
    })
    .meta({ description });
}
