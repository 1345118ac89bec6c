import { z } from 'zod';
import type { Parsed } from './units.js';

/**
 * What each quantity schema accepts, in the words of its error message (`expected`), for the
 * generated key reference (docs/scenario-keys.md, src/docs/scenarioKeys.ts). A registry of its
 * own, so the JSON Schema that editors read stays as it is.
 */
export const quantityExpectations = z.registry<{ expected: string }>();

/**
 * A zod schema for a quantity written with human units (`5MB`, `250ms`, `35%`) or as a
 * number: `parse` (from units.ts) turns it into base units, and a value it refuses becomes
 * an issue saying what was expected. Shared by the scenario and topology schemas.
 */
export function quantity(parse: (input: unknown) => Parsed, expected: string, description: string) {
  const schema = z
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
  quantityExpectations.add(schema, { expected });
  return schema;
}
