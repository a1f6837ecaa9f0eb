import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
// the workspace's TypeScript (a root devDependency), run with this Node
const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const tsc = (args: string[]) => run(process.execPath, [tscBin, ...args], { cwd: root });

describe('the manifest of @readlib/sdk', () => {
  it('builds before packing, and takes the contracts at build time only (their types are bundled)', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts.prepack).toBe(pkg.scripts.build);
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.devDependencies['@readlib/contracts']).toBe('workspace:*');
    expect(pkg.miniprogram).toBe('dist/miniprogram');
  });
});

describe('the type-level tests', () => {
  it('compile: each wrong call of test/client-types.check.ts and test/platform-types.check.ts is refused', async () => {
    // src and that file only (the typecheck script covers every file of the package)
    await expect(tsc(['-p', 'tsconfig.check.json'])).resolves.toBeDefined();
  }, 120_000);
});
