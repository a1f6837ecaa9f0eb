import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Markdown with fenced code blocks and code spans blanked: links and headings there are text. */
export function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of a page's inline links and images, as written. */
export function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] as string,
  );
}

/** GitHub's anchors of a page: its headings' slugs (repeats numbered) and explicit `id`s. */
export function anchorsOf(markdown: string): Set<string> {
  const text = withoutCode(markdown);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = (heading as string)
      .toLowerCase()
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id as string);
  return anchors;
}

const external = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * The relative links of the page at `file` that do not resolve: the file (or folder) must exist, and
 * an anchor into a Markdown page must be one of its headings.
 */
export function brokenLinks(file: string, markdown = readFileSync(file, 'utf8')): string[] {
  return linkTargets(markdown).flatMap((target) => {
    if (external.test(target)) return [];
    const [path = '', anchor] = target.split('#', 2);
    if (path === '')
      return anchorsOf(markdown).has(decodeURIComponent(anchor ?? '')) ? [] : [`${target} (no such heading)`];
    const resolved = resolve(dirname(file), decodeURIComponent(path));
    if (!existsSync(resolved)) return [`${target} (no such file)`];
    if (
      anchor === undefined ||
      anchor === '' ||
      !resolved.endsWith('.md') ||
      statSync(resolved).isDirectory()
    ) {
      return [];
    }
    return anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))
      ? []
      : [`${target} (no such heading)`];
  });
}

/**
 * The repository paths a page names in code spans (`packages/data/src/search/match.ts`): a path from
 * the root into one of the project's top folders, without wildcards. Pages point readers at files
 * this way more often than by links, and a moved file leaves such a name behind.
 */
export function namedPaths(markdown: string): string[] {
  return [...markdown.matchAll(/`((?:apps|packages|bench|deploy|tests|docs)\/[\w./-]+)`/g)].map(
    (m) => m[1] as string,
  );
}
