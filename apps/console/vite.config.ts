import vue from '@vitejs/plugin-vue';
import { ElementPlusResolver } from 'unplugin-vue-components/resolvers';
import Components from 'unplugin-vue-components/vite';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { contractDefines } from './contract-limits';

/** Where `pnpm dev` sends API calls: the admin service started by `pnpm start`. */
const adminApi = process.env.CONSOLE_DEV_ADMIN_URL ?? 'http://127.0.0.1:3001';

export default defineConfig({
  // the admin service serves the build under /console/ (apps/admin-api, console.plugin.ts)
  base: '/console/',
  plugins: [
    vue(),
    // Element Plus components (and their CSS) imported where a template uses them, nothing else
    Components({
      dirs: [],
      resolvers: [ElementPlusResolver({ importStyle: 'css' })],
      dts: 'src/components.d.ts',
    }),
    // each text file of the build beside its gzip and brotli copies, which the admin service sends to
    // a browser that accepts them (console.plugin.ts): compressed once here, never per request
    compression({
      algorithms: ['gzip', 'brotliCompress'],
      include: /\.(js|css|html|svg|json)$/,
      exclude: /\.vite\//,
      threshold: 1024,
      skipIfLargerOrEqual: true,
    }),
  ],
  resolve: {
    // echarts-wordcloud imports the prebuilt `echarts/lib/echarts`, which also installs the canvas
    // renderer and datasets; the same API from `echarts/core` keeps only what echarts.setup.ts uses
    alias: [{ find: /^echarts\/lib\/echarts(\.js)?$/, replacement: 'echarts/core' }],
  },
  define: {
    __VUE_OPTIONS_API__: 'false',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    __VUE_I18N_FULL_INSTALL__: 'false',
    __VUE_I18N_LEGACY_API__: 'false',
    __INTLIFY_PROD_DEVTOOLS__: 'false',
    // the field limits of the contracts' book bodies, read from their schema (contract-limits.ts)
    ...contractDefines(),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // read by scripts/size-report.mjs to follow what each page loads
    manifest: true,
    // the size that matters is measured by `pnpm size` (scripts/size-report.mjs)
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    proxy: Object.fromEntries(['/user', '/book', '/screen'].map((path) => [path, adminApi])),
  },
});
