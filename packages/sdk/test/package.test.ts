import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '../tools/package-bundle.options.js';

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

  it('bundles the workspace code it carries from its sources, so a fresh clone packs without a build first', async () => {
    // the README packs right after `install`: no package of the workspace has a dist/ then
    for (const format of ['esm', 'cjs'] as const) {
      const { metafile } = await build({
        ...bundleOptions,
        format,
        outdir: 'dist',
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      // files of the workspace's other packages (`../<package>/...`), not of node_modules
      const fromWorkspace = Object.keys(metafile.inputs).filter((f) => /^\.\.\/[\w-]+\//.test(f));
      expect(fromWorkspace, format).toContain('../contracts/src/routes/index.ts');
      expect(
        fromWorkspace.filter((f) => !/^\.\.\/[\w-]+\/src\//.test(f)),
        format,
      ).toEqual([]);
    }
  });
});

describe("the workspace's beforePacking hook (.pnpmfile.cjs)", () => {
  it("leaves scripts and devDependencies out of @readlib/sdk's packed manifest, and any other package's alone", () => {
    const { hooks } = createRequire(import.meta.url)('../../../.pnpmfile.cjs');
    const manifest = (name: string) => ({
      name,
      version: '1.0.0',
      exports: { '.': './dist/index.js' },
      scripts: { build: 'node build.js', test: 'vitest run' },
      dependencies: { kept: '^1.0.0' },
      devDependencies: { '@readlib/contracts': '0.1.0' },
    });
    expect(hooks.beforePacking(manifest('@readlib/sdk'))).toEqual({
      name: '@readlib/sdk',
      version: '1.0.0',
      exports: { '.': './dist/index.js' },
      dependencies: { kept: '^1.0.0' },
    });
    expect(hooks.beforePacking(manifest('@readlib/contracts'))).toEqual(manifest('@readlib/contracts'));
  });
});

describe('the type-level tests', () => {
  it('compile: each wrong call of test/client-types.check.ts and test/platform-types.check.ts is refused', async () => {
    // src and that file only (the typecheck script covers every file of the package)
    await expect(tsc(['-p', 'tsconfig.check.json'])).resolves.toBeDefined();
  }, 120_000);
});
