import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, linkTargets, namedPaths } from '../src/markdown-links.js';
import { ignoredPaths, repoRoot, repositoryFiles } from '../src/repository-files.js';

const files = repositoryFiles().filter(
  (f) => existsSync(join(repoRoot, f)) && statSync(join(repoRoot, f)).isFile(),
);

describe('README', () => {
  it('stays short: at most 8 KB, the rest is in docs/', () => {
    expect(statSync(join(repoRoot, 'README.md')).size).toBeLessThanOrEqual(8 * 1024);
  });
});

describe('no reference leaves the repository', () => {
  // built from parts, so that this file does not name them itself
  const outside = [['..', 'shared'].join('/'), ['shared', 'spec'].join('/')];

  it('no tracked file (docs, code, comments, package READMEs, OpenAPI documents) names the shared folder', () => {
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => {
      const bytes = readFileSync(join(repoRoot, file));
      return outside.filter((needle) => bytes.includes(needle)).map((needle) => `${file}: ${needle}`);
    });
    expect(found).toEqual([]);
  });
});

describe('relative links of the Markdown pages resolve', () => {
  const pages = files.filter(
    (f) =>
      f === 'README.md' ||
      (f.startsWith('docs/') && f.endsWith('.md')) ||
      /^(apps|packages)\/[^/]+\/README\.md$/.test(f),
  );

  it('covers README.md and every page under docs/', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/architecture/README.md');
    expect(pages.filter((p) => p.startsWith('docs/')).length).toBeGreaterThan(20);
  });

  it.each(pages)('%s', (page) => {
    expect(brokenLinks(join(repoRoot, page))).toEqual([]);
  });

  it('the checker finds a missing file, a missing heading, and ignores code and external links', () => {
    const page = join(repoRoot, 'docs', 'example.md');
    const text = [
      '[ok](architecture/README.md#the-path-of-a-request) [web](https://example.com) [self](#a-title)',
      '# A title',
      '[gone](no-such-file.md) [bad anchor](errors.md#no-such-heading)',
      '`[in code](nowhere.md)`',
      '```',
      '[in a block](nowhere.md)',
      '```',
    ].join('\n');
    expect(linkTargets(text)).toHaveLength(5);
    expect(brokenLinks(page, text)).toEqual([
      'no-such-file.md (no such file)',
      'errors.md#no-such-heading (no such heading)',
    ]);
  });

  it("anchors follow GitHub's slugs: punctuation dropped, spaces to hyphens, repeats numbered, explicit ids", () => {
    const anchors = anchorsOf(
      '## Search index upkeep (SQLite)\n## 2. Envelopes and errors\n## Notes\n## Notes\n<a id="schema-x"></a>',
    );
    expect([...anchors]).toEqual([
      'search-index-upkeep-sqlite',
      '2-envelopes-and-errors',
      'notes',
      'notes-1',
      'schema-x',
    ]);
  });
});

describe('the repository paths the Markdown pages name in code spans exist', () => {
  const pages = files.filter((f) => f.endsWith('.md') && !f.startsWith('CHANGELOG'));

  // what git ignores (build output, benchmark data) exists once made: a clean clone has none of it
  it.each(pages)('%s', (page) => {
    const named = namedPaths(readFileSync(join(repoRoot, page), 'utf8'));
    const made = ignoredPaths(named);
    expect(named.filter((path) => !made.has(path) && !existsSync(join(repoRoot, path)))).toEqual([]);
  });

  it('build output and benchmark data count as made, a source file does not', () => {
    expect([...ignoredPaths(['apps/console/dist', 'bench/.data/', 'packages/data/src/gone.ts'])]).toEqual([
      'apps/console/dist',
      'bench/.data/',
    ]);
  });

  it('the checker reads paths from the top folders and leaves wildcards and other text alone', () => {
    expect(
      namedPaths(
        '`packages/data/src/a.ts` and `apps/console/` but not `src/b.ts`, `packages/*/dist`, packages/c.ts',
      ),
    ).toEqual(['packages/data/src/a.ts', 'apps/console/']);
  });
});
