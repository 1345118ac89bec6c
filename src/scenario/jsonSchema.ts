import { z } from 'zod';
import { scenarioSchema } from './schema.js';

/**
 * The JSON Schema of scenario files as they are written (quantities as strings with units
 * or numbers), for editor completion: point `$schema` (JSON) or a
 * `# yaml-language-server: $schema=…` comment (YAML) at the file `cdnsim schema` writes.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return { ...schema, $id: 'https://cdnsim.dev/schema/scenario.schema.json' };
}
