import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * A file shipped inside an installed package (a browser build, a font, a map), found from
 * the package's folder: vega's and vega-embed's `exports` do not list their browser builds,
 * so `require.resolve('vega/build/vega.min.js')` is refused.
 */
export function packageFile(packageName: string, file: string): string {
  const paths = require.resolve.paths(packageName) ?? [];
  for (const base of paths) {
    const candidate = join(base, packageName, file);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${packageName}/${file} is not installed; run npm ci (it is a dependency of cdnsim)`);
}
