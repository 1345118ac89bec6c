import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../cli/helpers.js';

/** README.md and every page under docs/, as paths from the repository root. */
function pages(): string[] {
  const found = ['README.md'];
  const walk = (folder: string): void => {
    for (const name of readdirSync(join(REPO, folder))) {
      const path = join(folder, name);
      if (statSync(join(REPO, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found;
}

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(path: string): Set<string> {
  const text = readFileSync(join(REPO, path), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

/** Relative links of a page, outside code blocks and code spans. */
function linksOf(path: string): string[] {
  const text = readFileSync(join(REPO, path), 'utf8').replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe('the README and docs/ link only to what the repository holds (issue 26: a clone has no ../shared)', () => {
  it('every relative link names a file of the repository, and every #anchor a heading of it', () => {
    const broken: string[] = [];
    for (const page of pages()) {
      for (const link of linksOf(page)) {
        const [file, anchor] = link.split('#') as [string, string | undefined];
        const target = file === '' ? page : relative(REPO, join(REPO, dirname(page), file));
        if (target.startsWith('..') || !existsSync(join(REPO, target))) broken.push(`${page}: ${link} (no file ${target} in the repository)`);
        else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(`${page}: ${link} (no heading for #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no page points outside the repository (../shared, the service description by file)', () => {
    const outside = pages().filter((page) => /\.\.\/shared|cdn-caching-behaviour\.md/.test(readFileSync(join(REPO, page), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('README.md stays a ten-minute read: at most 300 lines', () => {
    expect(readFileSync(join(REPO, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });
});
