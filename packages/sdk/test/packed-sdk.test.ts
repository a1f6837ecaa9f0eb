import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { adminRoutes, readerRoutes } from '@readlib/contracts/routes';
import { build } from 'esbuild';
import type * as TypeScript from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR, type Services, startServices } from './helpers.js';

const run = promisify(execFile);
const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../../epub/fixtures/real/${name}`, import.meta.url));
const epub = fixture('test-book-v3.epub');
const sdkRoot = fileURLToPath(new URL('..', import.meta.url));
// the workspace's TypeScript (a root devDependency), run with this Node
const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const tsLib = dirname(createRequire(import.meta.url).resolve('typescript/lib/lib.d.ts'));
/** tsc in `cwd`; a failure says what the compiler printed (its errors go to stdout). */
const tscIn = (cwd: string) => (args: string[]) =>
  run(process.execPath, [tscBin, ...args], { cwd }).catch((err: { stdout?: string }) => {
    throw new Error(`tsc ${args.join(' ')}:\n${err.stdout ?? String(err)}`);
  });

/** The environment without the package managers' own variables, so npm runs as in a plain shell. */
const plainEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)));

/** The ```ts blocks of a Markdown text, named `<source>-<n>`. */
const typeScriptExamples = (source: string, markdown: string) =>
  [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => ({
    name: `${source}-${i + 1}`,
    code: m[1]!,
  }));

/** pnpm itself: the one running this suite when there is one, else the one on the PATH. */
const pnpm = (args: string[]) => {
  const self = process.env.npm_execpath;
  return self && /pnpm\.c?js$/.test(self)
    ? run(process.execPath, [self, ...args], { cwd: workspaceRoot })
    : run('pnpm', args, { cwd: workspaceRoot });
};

describe('the packed SDK, installed alone in an empty project outside the workspace', () => {
  let work: string;
  let project: string;
  let tarball: string;
  let unpacked: string;
  let packedFiles: string[];
  let s: Services;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'readlib-sdk-pack-'));
    // README's command: the prepack script builds dist/ first
    await pnpm(['--filter', '@readlib/sdk', 'pack', '--pack-destination', work]);
    const tarballs = (await readdir(work)).filter((f) => f.endsWith('.tgz'));
    expect(tarballs).toHaveLength(1);
    tarball = join(work, tarballs[0]!);
    unpacked = join(work, 'unpacked');
    await mkdir(unpacked);
    await run('tar', ['-xzf', tarball, '-C', unpacked]);
    packedFiles = (await run('tar', ['-tzf', tarball])).stdout.trim().split('\n');

    project = join(work, 'consumer');
    await cp(fileURLToPath(new URL('./consumer-app', import.meta.url)), project, { recursive: true });
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    // zero dependencies: npm needs no registry for it
    await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--cache', join(work, 'npm-cache'), tarball],
      {
        cwd: project,
        env: plainEnv(),
      },
    );
    s = await startServices();
  }, 300_000);
  afterAll(async () => {
    await s?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is one versioned, public tarball with its README, the LICENSE, the OpenAPI documents and no dependencies', async () => {
    const pkg = JSON.parse(await readFile(join(unpacked, 'package/package.json'), 'utf8'));
    expect(tarball.endsWith(`readlib-sdk-${pkg.version}.tgz`)).toBe(true);
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.private).toBeUndefined();
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
    expect([pkg.type, pkg.sideEffects, pkg.license]).toEqual(['module', false, 'MIT']);
    // the package's own manifest, less what only the workspace uses (the tools and tests its scripts
    // run, workspace packages that are never published): .pnpmfile.cjs's beforePacking hook
    const { scripts, devDependencies, ...published } = JSON.parse(
      await readFile(join(sdkRoot, 'package.json'), 'utf8'),
    );
    expect([Object.keys(scripts).length, Object.keys(devDependencies).length]).not.toContain(0);
    expect(pkg).toEqual(published);
    // each entry for import and require, with the declarations of its own module format
    const entry = (name: string) => ({
      import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
      require: { types: `./dist/miniprogram/${name}.d.ts`, default: `./dist/miniprogram/${name}.js` },
    });
    expect(pkg.exports).toEqual({
      '.': entry('index'),
      './wechat': entry('wechat'),
      './alipay': entry('alipay'),
      './openapi/reader-api.json': './openapi/reader-api.json',
      './openapi/admin-api.json': './openapi/admin-api.json',
      './package.json': './package.json',
    });
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    for (const f of [
      'LICENSE',
      'README.md',
      'openapi/reader-api.json',
      'openapi/admin-api.json',
      'package.json',
    ])
      expect(files).toContain(`package/${f}`);
    expect(await readFile(join(unpacked, 'package/LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(files.filter((f) => !/^package\/(dist|openapi)\//.test(f))).toEqual(
      ['LICENSE', 'README.md', 'package.json'].map((f) => `package/${f}`),
    );
  });

  it('ships JavaScript and declarations that import nothing outside the package', async () => {
    const dist = join(unpacked, 'package/dist');
    const files = (await readdir(dist, { recursive: true })).filter((f) => /\.(js|d\.ts)$/.test(f));
    expect(files.sort()).toEqual(
      [
        'alipay.d.ts',
        'alipay.js',
        'index.d.ts',
        'index.js',
        'miniprogram/alipay.d.ts',
        'miniprogram/alipay.js',
        'miniprogram/index.d.ts',
        'miniprogram/index.js',
        'miniprogram/wechat.d.ts',
        'miniprogram/wechat.js',
        'wechat.d.ts',
        'wechat.js',
      ].map((f) => f.replaceAll('/', sep)),
    );
    for (const f of files) {
      const text = await readFile(join(dist, f), 'utf8');
      const specifiers = [
        ...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*)['"]([^'"]+)['"]/g),
      ].map((m) => m[1]);
      // the adapters' declarations import the core's from the main entry, nothing else
      expect(
        specifiers.filter((x) => x !== './index.js'),
        f,
      ).toEqual([]);
      // no schema or validator code: the contracts reach the package as types only
      if (f.endsWith('.js')) expect(text, f).not.toMatch(/@sinclair\/typebox|TypeBox|\$id/);
    }
    const index = await readFile(join(dist, 'index.d.ts'), 'utf8');
    // the contracts' types are exported as types only (their schemas are not in the package)
    expect(index).toMatch(/export type \{[^}]*\bHomeData\b[^}]*\}/);
    expect(index).not.toMatch(/export \{[^}]*\bHomeData\b[^}]*\}/);
    // every contract type a method takes or returns is one the package exports, so a front end can name it
    const generated = await readFile(join(sdkRoot, 'src/route-calls.generated.ts'), 'utf8');
    const named = /^import type \{([^}]*)\} from '@readlib\/contracts';/m.exec(generated)![1]!.match(/\w+/g)!;
    const typeExports = [...index.matchAll(/^export type \{([^}]*)\};$/gm)].flatMap(
      (m) => m[1]!.match(/\w+/g)!,
    );
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((n) => !typeExports.includes(n))).toEqual([]);
    // a recursive type survives declaration emit by its name, not as `/*elided*/ any[]`
    expect(index).not.toContain('elided');
    expect(index).toMatch(
      /interface ContentsNode\S* extends ContentsEntry\S* \{\s*children: ContentsNode\S*\[\];/,
    );
    // the CommonJS build declares the same (the folder's package.json makes them CommonJS)
    for (const name of ['index', 'wechat', 'alipay'])
      expect(await readFile(join(dist, 'miniprogram', `${name}.d.ts`), 'utf8')).toBe(
        await readFile(join(dist, `${name}.d.ts`), 'utf8'),
      );
    expect(JSON.parse(await readFile(join(dist, 'miniprogram', 'package.json'), 'utf8'))).toEqual({
      type: 'commonjs',
    });
  });

  it('ships a README that names only files of the package (no path of the repository)', async () => {
    const readme = await readFile(join(unpacked, 'package/README.md'), 'utf8');
    const named = [
      ...readme.matchAll(
        /(?<![\w/.~-])((?:[\w@*.-]+\/)*[\w*-]+(?:\.[\w*-]+)*\.(?:ts|js|mjs|cjs|json|md))\b/g,
      ),
    ].map((m) => m[1]!.replace(/^@readlib\/sdk\//, ''));
    expect(named.length).toBeGreaterThan(5);
    // a mini-program's own app.json is not the package's
    const absent = named.filter((f) => {
      if (f === 'app.json') return false;
      const pattern = new RegExp(`^package/${f.replaceAll('.', '\\.').replaceAll('*', '[^/]+')}$`);
      return !packedFiles.some((p) => pattern.test(p));
    });
    expect(absent).toEqual([]);
    expect(readme).not.toMatch(/\]\((?!https?:|#)/);
  });

  it('tree-shakes: a reader-only bundle carries no admin code, and the main entry no adapter', async () => {
    const bundle = async (contents: string) => {
      const result = await build({
        stdin: { contents, resolveDir: project, loader: 'js' },
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        logLevel: 'silent',
      });
      return result.outputFiles[0]!.text;
    };
    const reader = await bundle(
      `import { createReaderClient } from '@readlib/sdk'; console.log(createReaderClient);`,
    );
    expect(reader).toContain('/book/home/v2');
    expect(reader).not.toContain('/book/upload');
    expect(reader).not.toContain('onUnauthorized');
    expect(reader).not.toContain('uploadFile');
    // the upload's XMLHttpRequest path (progress) is the admin client's
    expect(reader).not.toContain('XMLHttpRequest');
    const admin = await bundle(
      `import { createAdminClient } from '@readlib/sdk'; console.log(createAdminClient);`,
    );
    expect(admin).toContain('/book/upload');
    expect(admin).not.toContain('/book/home/v2');
    expect(admin).toContain('XMLHttpRequest');
    const wechat = await bundle(
      `import { wechatFetch } from '@readlib/sdk/wechat'; console.log(wechatFetch);`,
    );
    expect(wechat).toContain('uploadFile');
    expect(wechat).not.toContain('/book/');
  });

  it('is the only package the project has, installed inside it', async () => {
    const { stdout } = await run('npm', ['ls', '--all', '--json'], { cwd: project, env: plainEnv() });
    const tree = JSON.parse(stdout);
    expect(Object.keys(tree.dependencies)).toEqual(['@readlib/sdk']);
    expect(tree.dependencies['@readlib/sdk'].dependencies ?? {}).toEqual({});
    // the temporary project is outside the workspace, so no workspace node_modules is on its path
    expect(relative(workspaceRoot, project).startsWith('..')).toBe(true);
  });

  it('typechecks a strict app using both clients and the adapters, with node16 and bundler resolution', async () => {
    const tsc = tscIn(project);
    // every declaration the compiler read is the project's own or TypeScript's standard library
    const { stdout } = await tsc(['-p', 'tsconfig.json', '--listFiles']);
    const read = stdout.trim().split('\n');
    expect(read.filter((f) => !f.startsWith(project) && !f.startsWith(tsLib))).toEqual([]);
    expect(
      read.some((f) => f.endsWith(['node_modules', '@readlib', 'sdk', 'dist', 'index.d.ts'].join(sep))),
    ).toBe(true);
    await expect(tsc(['-p', 'tsconfig.bundler.json'])).resolves.toBeDefined();
  }, 180_000);

  it('lets a library over it emit declarations that name the contract types (no TS4023, no private names)', async () => {
    await tscIn(project)(['-p', 'tsconfig.declarations.json']);
    const emitted = await readFile(join(project, 'declarations', 'wrapper.d.ts'), 'utf8');
    // each call's result by its contract name, as a hover shows it, rather than its fields spelled out
    for (const [fn, type] of [
      ['loadContents', 'BookContents'],
      ['loadHome', 'HomeData'],
      ['signIn', 'LoginData'],
      ['loadBook', 'AdminBookDetail'],
      ['loadPage', 'BookPage'],
      ['byAuthor', 'BookSummary\\[\\]'],
    ])
      expect(emitted).toMatch(
        new RegExp(`${fn}: \\([^)]*\\) => Promise<(import\\("@readlib/sdk"\\)\\.)?${type}>;`),
      );
    expect(emitted).toMatch(/readerAt: \(baseUrl: string\) => ReaderClient;/);
    expect(emitted).not.toMatch(/\$\d|\bid: number;/);
  }, 180_000);

  it("an editor's hover on a method shows its route and summary, read from the packed declarations", async () => {
    const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;
    const file = join(project, 'hover.ts');
    const text = [
      "import { createAdminClient, createReaderClient } from '@readlib/sdk';",
      "const reader = createReaderClient({ baseUrl: 'https://reader.example.com' });",
      "const admin = createAdminClient({ baseUrl: 'https://admin.example.com' });",
      'export const calls = [reader.getHome, reader.getBookDetail, admin.getDashboard, admin.deleteBook];',
    ].join('\n');
    await writeFile(file, text);
    const service = ts.createLanguageService(
      {
        getScriptFileNames: () => [file],
        getScriptVersion: () => '1',
        getScriptSnapshot: (name) => {
          const content = ts.sys.readFile(name);
          return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
        },
        getCurrentDirectory: () => project,
        getCompilationSettings: () => ({
          module: ts.ModuleKind.NodeNext,
          moduleResolution: ts.ModuleResolutionKind.NodeNext,
          target: ts.ScriptTarget.ES2022,
          strict: true,
        }),
        getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
        fileExists: ts.sys.fileExists,
        readFile: ts.sys.readFile,
        readDirectory: ts.sys.readDirectory,
        directoryExists: ts.sys.directoryExists,
        getDirectories: ts.sys.getDirectories,
      },
      ts.createDocumentRegistry(),
    );
    const hover = (member: string) => {
      const info = service.getQuickInfoAtPosition(file, text.indexOf(`.${member}`) + 1);
      return {
        shown: ts.displayPartsToString(info?.displayParts),
        doc: ts.displayPartsToString(info?.documentation),
      };
    };
    expect(hover('getHome')).toEqual({
      shown: expect.stringContaining('Promise<HomeData>'),
      doc: `GET /book/home/v2: ${readerRoutes.getHome.summary}`,
    });
    expect(hover('getBookDetail').doc).toBe(`GET /book/detail: ${readerRoutes.getBookDetail.summary}`);
    expect(hover('getDashboard').doc).toBe(`GET /book/home: ${adminRoutes.getDashboard.summary}`);
    expect(hover('deleteBook').doc).toBe(`GET /book/delete: ${adminRoutes.deleteBook.summary}`);
  });

  it('works from CommonJS: require() of every entry, and a node16 CommonJS TypeScript module', async () => {
    const tsc = tscIn(project);
    // a .cts module compiles against the declarations of the require conditions (else TS1479)
    const { stdout: listed } = await tsc(['-p', 'tsconfig.cjs.json', '--listFiles']);
    const sdkDeclarations = listed
      .trim()
      .split('\n')
      .filter((f) => f.includes(join('node_modules', '@readlib', 'sdk')))
      .map((f) => relative(join(project, 'node_modules', '@readlib', 'sdk'), f).replaceAll(sep, '/'))
      .sort();
    expect(sdkDeclarations).toEqual([
      'dist/miniprogram/alipay.d.ts',
      'dist/miniprogram/index.d.ts',
      'dist/miniprogram/wechat.d.ts',
    ]);
    const { stdout } = await run(process.execPath, ['require.cjs', s.readerUrl], {
      cwd: project,
      env: plainEnv(),
    });
    const { result, resolved, exported } = JSON.parse(stdout);
    expect(result).toEqual({ health: 'ok', missing: 'not_found' });
    const sdk = join(project, 'node_modules', '@readlib', 'sdk', 'dist', 'miniprogram');
    expect(resolved).toEqual({
      main: join(sdk, 'index.js'),
      wechat: join(sdk, 'wechat.js'),
      alipay: join(sdk, 'alipay.js'),
    });
    expect(exported.main).toEqual(
      expect.arrayContaining([
        'ApiError',
        'BOOK_LIST_SORT_FIELDS',
        'createAdminClient',
        'createReaderClient',
        'isApiError',
      ]),
    );
    expect([exported.wechat, exported.alipay]).toEqual([['wechatFetch'], ['alipayFetch']]);
  }, 180_000);

  it('compiles every TypeScript example of its README and of the SDK page as written, and runs those outside mini-programs against both services', async () => {
    const examples = [
      ...typeScriptExamples('readme', await readFile(join(unpacked, 'package/README.md'), 'utf8')),
      ...typeScriptExamples('sdk-page', await readFile(join(workspaceRoot, 'docs/sdk.md'), 'utf8')),
    ];
    // the README's reader, two mini-program, timeout, admin and progress examples, the page's one
    expect(examples.length).toBeGreaterThanOrEqual(7);
    const isMiniProgram = (code: string) => /\b(wx|my)\b/.test(code);
    // only the hosts change: the examples' own, for the services of this test
    const hosts: [string, string][] = [
      ['https://reader.example.com', s.readerUrl],
      ['https://admin.example.com', s.adminUrl],
      ['http://localhost:3000', s.readerUrl],
      ['http://localhost:3001', s.adminUrl],
    ];
    for (const dir of ['examples', 'examples-mp']) await mkdir(join(project, dir), { recursive: true });
    for (const { name, code } of examples) {
      const text = hosts.reduce((t, [from, to]) => t.replaceAll(from, to), code);
      await writeFile(join(project, isMiniProgram(code) ? 'examples-mp' : 'examples', `${name}.ts`), text);
    }
    // WeChat's typings (`wx`, `Page`), as a mini-program project has them
    const wechatTypings = createRequire(join(sdkRoot, 'package.json')).resolve('miniprogram-api-typings');
    await writeFile(
      join(project, 'mini-program-typings.d.ts'),
      `/// <reference path=${JSON.stringify(wechatTypings)} />\n`,
    );
    const tsc = tscIn(project);
    await tsc(['-p', 'tsconfig.examples-mp.json']);
    await tsc(['-p', 'tsconfig.examples.json']);

    const runnable = examples.filter((e) => !isMiniProgram(e.code)).map((e) => e.name);
    expect(runnable.length).toBeGreaterThanOrEqual(4);
    const { stdout } = await run(
      process.execPath,
      [
        'run-examples.mjs',
        s.readerUrl,
        s.adminUrl,
        OPERATOR.username,
        OPERATOR.password,
        fixture('testbook.epub'),
        fixture('example-v3.epub'),
        ...runnable,
      ],
      { cwd: project, env: plainEnv() },
    );
    expect(JSON.parse(stdout)).toEqual(Object.fromEntries(runnable.map((name) => [name, 'ok'])));
  }, 180_000);

  it("maps its ESM code to the SDK's TypeScript: a refusal's stack names src/*.ts lines under --enable-source-maps", async () => {
    // the maps carry their sources, so a stack or a debugger needs nothing beyond the tarball
    for (const name of ['index', 'wechat', 'alipay']) {
      expect(packedFiles).toContain(`package/dist/${name}.js.map`);
      const map = JSON.parse(await readFile(join(unpacked, `package/dist/${name}.js.map`), 'utf8'));
      expect(map.sourcesContent).toHaveLength(map.sources.length);
      expect(map.sources).toContain(`../src/${name === 'index' ? 'transport' : `${name}.adapter`}.ts`);
    }
    // the mini-program build has none: its folder is copied into a mini-program whose size is capped
    expect(
      packedFiles.filter((f) => f.startsWith('package/dist/miniprogram/') && f.endsWith('.map')),
    ).toEqual([]);
    const script = `import { createReaderClient } from '@readlib/sdk';
      const reader = createReaderClient({ baseUrl: ${JSON.stringify(s.readerUrl)} });
      await reader.getBookDetail({ fileName: 'no-such-book' }).catch((e) => console.log(e.kind, e.stack));`;
    const stackOf = async (args: string[]) =>
      (
        await run(process.execPath, [...args, '--input-type=module', '-e', script], {
          cwd: project,
          env: plainEnv(),
        })
      ).stdout;
    const sdk = join(project, 'node_modules', '@readlib', 'sdk');
    const mapped = await stackOf(['--enable-source-maps']);
    expect(mapped).toMatch(/^not_found ApiError/);
    expect(mapped).toContain(`(${join(sdk, 'src', 'transport.ts')}:`);
    expect(mapped).not.toContain(join(sdk, 'dist'));
    // without the flag, the same stack names the built file
    expect(await stackOf([])).toContain(join(sdk, 'dist', 'index.js'));
  });

  it('runs against both services: upload, create, list, home, detail and a typed error', async () => {
    const { stdout } = await run(
      process.execPath,
      ['run.mjs', s.readerUrl, s.adminUrl, OPERATOR.username, OPERATOR.password, epub],
      { cwd: project, env: plainEnv() },
    );
    const { report, miniprogram, resolved } = JSON.parse(stdout);
    expect(report.uploadedTitle).toMatch(/.+/);
    expect(report.detailTitle).toBe(report.uploadedTitle);
    // Node has no XMLHttpRequest: the upload's progress is its end, the file's size
    const size = (await stat(epub)).size;
    expect(report.progress).toEqual([{ loaded: size, total: size }]);
    expect(report.listed).toBeGreaterThanOrEqual(1);
    expect(report.homeKeys).toEqual(expect.arrayContaining(['banner', 'recommend', 'shelf']));
    expect(report.missing).toEqual({ kind: 'not_found', status: 404, code: 1 });
    expect(miniprogram.health.status).toBe('ok');
    expect(miniprogram.wechat).toEqual(['wechatFetch']);
    expect(miniprogram.alipay).toEqual(['alipayFetch']);
    for (const url of Object.values(resolved) as string[])
      expect(fileURLToPath(url).startsWith(join(project, 'node_modules', '@readlib', 'sdk'))).toBe(true);
  }, 60_000);
});
