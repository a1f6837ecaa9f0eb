import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
// the workspace's TypeScript (a root devDependency), run with this Node
const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const tsc = (args: string[]) => run(process.execPath, [tscBin, ...args], { cwd: root });

describe('the published shape of @readlib/sdk', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'readlib-sdk-dist-'));
    // the build script's compiler options, written elsewhere so a test never touches dist/
    await tsc(['-p', 'tsconfig.build.json', '--outDir', out]);
  }, 60_000);
  afterAll(async () => rm(out, { recursive: true, force: true }));

  it('package.json: ESM, exports map with types and import, no side effects, contracts its only dependency', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(Object.keys(pkg.dependencies)).toEqual(['@readlib/contracts']);
  });

  it('emits JavaScript that imports nothing outside the package, and declarations for every module', async () => {
    const files = (await readdir(out)).sort();
    const js = files.filter((f) => f.endsWith('.js'));
    expect(js).toContain('index.js');
    for (const f of js) {
      expect(files).toContain(f.replace(/\.js$/, '.d.ts'));
      const text = await readFile(join(out, f), 'utf8');
      const specifiers = [...text.matchAll(/\b(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g)].map(
        (m) => m[1],
      );
      expect(
        specifiers.filter((s) => !s!.startsWith('./')),
        f,
      ).toEqual([]);
    }
    const dts = await readFile(join(out, 'reader-client.types.d.ts'), 'utf8');
    expect(dts).toMatch(/import type \{[^}]*HomeData[^}]*\} from '@readlib\/contracts'/);
  });

  it('tree-shakes: a reader-only bundle carries no admin code, and neither carries contracts', async () => {
    const bundle = async (contents: string) => {
      const result = await build({
        stdin: { contents, resolveDir: out, loader: 'js' },
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        logLevel: 'silent',
      });
      return result.outputFiles[0]!.text;
    };
    const reader = await bundle(
      `import { createReaderClient } from './index.js'; console.log(createReaderClient);`,
    );
    expect(reader).toContain('/book/home/v2');
    expect(reader).not.toContain('/book/upload');
    expect(reader).not.toContain('onUnauthorized');
    const admin = await bundle(
      `import { createAdminClient } from './index.js'; console.log(createAdminClient);`,
    );
    expect(admin).toContain('/book/upload');
    expect(admin).not.toContain('/book/home/v2');
    for (const text of [reader, admin]) expect(text).not.toContain('@sinclair/typebox');
  });

  it('the type-level tests compile: each wrong call of test/client-types.check.ts is refused', async () => {
    // src and that file only (the typecheck script covers every file of the package)
    await expect(tsc(['-p', 'tsconfig.check.json'])).resolves.toBeDefined();
  }, 120_000);
});
