import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/** A path of the package, from its folder. */
export const at = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** The package's entry points: the clients, and each mini-program adapter. */
export const entryPoints = {
  index: at('src/index.ts'),
  wechat: at('src/wechat.adapter.ts'),
  alipay: at('src/alipay.adapter.ts'),
};

/**
 * What the ESM and the CommonJS builds of tools/build-package.ts share. `conditions: ['source']`: the
 * workspace packages the SDK takes code from (the contracts' route tables and sortable fields) are
 * bundled from their sources, which their `exports` name under that condition, as the declarations
 * are. Their `default` is a `dist/` that only `pnpm build` writes, so without it packing a fresh clone
 * as the README says (install, then pack) would fail to resolve them.
 */
export const bundleOptions: BuildOptions = {
  entryPoints,
  bundle: true,
  platform: 'neutral',
  conditions: ['source'],
  logLevel: 'warning',
  absWorkingDir: at('.'),
};
