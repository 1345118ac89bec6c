import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  name: string;
  version: string;
}

/** cdnsim's own package.json, found by walking up from this module (src/ or dist/src/). */
export function packageInfo(): PackageInfo {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(folder, 'package.json');
    if (existsSync(candidate)) {
      const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as Partial<PackageInfo>;
      if (parsed.name === 'cdnsim') return { name: parsed.name, version: parsed.version ?? '0.0.0' };
    }
    folder = dirname(folder);
  }
  return { name: 'cdnsim', version: 'unknown' };
}
