import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('docs/README.md indexes every page (issue 26: a reference that cannot lag)', () => {
  it('links each docs/*.md page, and every link it has names a page that exists', () => {
    const index = readFileSync('docs/README.md', 'utf8');
    const pages = readdirSync('docs').filter((name) => name.endsWith('.md') && name !== 'README.md');
    const linked = [...index.matchAll(/\]\(([^)#]+\.md)\)/g)].map((match) => match[1]).filter((link) => !link.includes('/'));
    expect(pages.filter((page) => !linked.includes(page))).toEqual([]);
    expect(linked.filter((link) => !pages.includes(link))).toEqual([]);
  });
});
