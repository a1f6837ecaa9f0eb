import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Every file git tracks or would track (untracked but not ignored), relative to the root. */
export function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.toString('utf8').split('\0').filter(Boolean))].sort();
}

/**
 * Which of these paths git ignores (build output, benchmark data): they exist only once made, so a
 * clean clone lacks them.
 */
export function ignoredPaths(paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set();
  // each also asked as a folder: a pattern such as `dist/` names folders only, and git cannot tell
  // that a path missing from the disk is one
  const asked = paths.flatMap((p) => (p.endsWith('/') ? [p] : [p, `${p}/`]));
  let out: Buffer;
  try {
    out = execFileSync('git', ['check-ignore', '--no-index', '--stdin', '-z'], {
      cwd: repoRoot,
      input: asked.join('\0'),
    });
  } catch (err) {
    // exit status 1: none of them is ignored
    if ((err as { status?: number }).status === 1) return new Set();
    throw err;
  }
  const ignored = new Set(out.toString('utf8').split('\0').filter(Boolean));
  return new Set(paths.filter((p) => ignored.has(p) || ignored.has(`${p}/`)));
}
