import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { at, bundleOptions as common, entryPoints } from './package-bundle.options.js';

/**
 * `pnpm --filter @readlib/sdk build` (and `prepack`): the self-contained package in dist/.
 * - dist/{index,wechat,alipay}.js: ESM, one file per entry point. The sources take from the contracts
 *   only what carries no TypeBox (types, the route tables, the sortable fields), so nothing of TypeBox
 *   reaches them; the adapters import the core as types only, so an entry carries only its own code.
 * - dist/miniprogram/*.js: the same entries as CommonJS for ES2017 runtimes, the folder the
 *   `miniprogram` field names for WeChat DevTools' "Build npm" (it copies that folder), whose
 *   mini-programs `require()` them.
 * - dist/{index,wechat,alipay}.d.ts: index.d.ts carries every type the clients expose, the contracts'
 *   included (inlined with the TypeBox declarations they are computed from); the adapters' import it.
 * - dist/miniprogram/*.d.ts: the same declarations next to the CommonJS build, which the `require`
 *   conditions of `exports` name: under the folder's `{"type":"commonjs"}` TypeScript reads them as
 *   CommonJS, so a CommonJS project (`module: node16`) gets them without TS1479.
 * - LICENSE: the repository's, which the package must carry.
 */

/** One declaration bundle; a warning (e.g. an import left unresolved, so not inlined) fails the build. */
async function declarationBundle(name: keyof typeof entryPoints, external: string[]): Promise<void> {
  const bundle = await rollup({
    input: { [name]: entryPoints[name] },
    external,
    plugins: [dts({ respectExternal: true, tsconfig: at('tsconfig.build.json') })],
    onwarn: (warning) => {
      throw new Error(`declarations of ${name}: ${warning.message}`);
    },
  });
  await bundle.write({ dir: at('dist'), format: 'es' });
  await typeOnlyExports(name);
}

/**
 * The contracts' names are a schema and a type each, and the declaration bundler exports such a
 * merged name as a value: `import { HomeData }` would then compile as a value that the JavaScript
 * does not have. Every name of an export list that the entry's JavaScript does not export is moved to
 * an `export type` list, so it is usable as a type only.
 */
async function typeOnlyExports(name: keyof typeof entryPoints): Promise<void> {
  const file = at(`dist/${name}.d.ts`);
  const runtime = new Set(Object.keys(await import(pathToFileURL(at(`dist/${name}.js`)).href)));
  const text = (await readFile(file, 'utf8')).replace(/^export \{ ([^}]*) \};$/gm, (_, list: string) => {
    const names = list.split(', ');
    const values = names.filter((n) => runtime.has(n));
    const types = names.filter((n) => !runtime.has(n));
    return [
      values.length > 0 ? `export { ${values.join(', ')} };` : '',
      types.length > 0 ? `export type { ${types.join(', ')} };` : '',
    ]
      .filter(Boolean)
      .join('\n');
  });
  await writeFile(file, text);
}

await rm(at('dist'), { recursive: true, force: true });
// source maps (with the sources inside) for the ESM build that browsers and Node load; the mini-program
// build has none: WeChat DevTools copies its folder into the mini-program, whose size is capped
await build({ ...common, format: 'esm', target: 'es2020', outdir: at('dist'), sourcemap: true });
await build({ ...common, format: 'cjs', target: 'es2017', outdir: at('dist/miniprogram') });
// the package is ESM: Node and bundlers read these .js files as CommonJS only with this marker
await writeFile(at('dist/miniprogram/package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
// index.d.ts inlines everything; each adapter's keeps its imports of the main entry
await declarationBundle('index', []);
await declarationBundle('wechat', ['./index.js']);
await declarationBundle('alipay', ['./index.js']);
// the adapters' `import ... from './index.js'` then resolves to the CommonJS index.d.ts beside them
for (const name of Object.keys(entryPoints)) {
  await copyFile(at(`dist/${name}.d.ts`), at(`dist/miniprogram/${name}.d.ts`));
}
await copyFile(at('../../LICENSE'), at('LICENSE'));
