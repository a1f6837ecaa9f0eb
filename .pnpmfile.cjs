'use strict';
/**
 * pnpm hooks of the workspace.
 *
 * beforePacking: the manifest `pnpm pack` (and `pnpm publish`) writes into @readlib/sdk's tarball
 * leaves out what only the workspace uses: `scripts` (build, test, openapi...: they run tools and
 * tests that are not in the package) and `devDependencies` (workspace packages that are never
 * published). A consumer's install reads neither, and they name files it does not have. Every
 * other package is packed as pnpm writes it.
 */
function beforePacking(pkg) {
  if (pkg.name !== '@readlib/sdk') return pkg;
  const { scripts: _scripts, devDependencies: _devDependencies, ...published } = pkg;
  return published;
}

module.exports = { hooks: { beforePacking } };
