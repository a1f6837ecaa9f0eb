// Runs the compiled app against the services whose URLs the test passes, and prints one JSON report.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { main } from './out/app.js';

const [reader, admin, username, password, epubPath] = process.argv.slice(2);
const report = await main(
  { reader, admin },
  { username, password },
  new Uint8Array(await readFile(epubPath)),
);

// the CommonJS build WeChat DevTools copies for mini-programs, loaded by its file path
const require = createRequire(import.meta.url);
const cjs = require('./node_modules/@readlib/sdk/dist/miniprogram/index.js');
const health = await cjs.createReaderClient({ baseUrl: reader }).health();
const wechat = Object.keys(require('./node_modules/@readlib/sdk/dist/miniprogram/wechat.js'));
const alipay = Object.keys(require('./node_modules/@readlib/sdk/dist/miniprogram/alipay.js'));

const resolved = {
  esm: import.meta.resolve('@readlib/sdk'),
  wechat: import.meta.resolve('@readlib/sdk/wechat'),
};
process.stdout.write(JSON.stringify({ report, miniprogram: { health, wechat, alipay }, resolved }));
