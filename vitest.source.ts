/**
 * Tests run the workspace packages' sources: their `exports` name `src/*.ts` under the `source`
 * condition and the compiled `dist/*.js` otherwise (what node runs in production), so no test needs a
 * build. Setting Vite's conditions replaces its defaults, which are therefore listed again.
 */
const conditions = ['source', 'module', 'node', 'development|production'];

export const sourceResolve = {
  resolve: { conditions },
  ssr: { resolve: { conditions } },
};
