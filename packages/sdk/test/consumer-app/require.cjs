// A CommonJS consumer (test/packed-sdk.test.ts runs it with the reader's URL): require() of every
// entry point by its name, then the compiled CommonJS TypeScript module.
const sdk = require('@readlib/sdk');
const wechat = require('@readlib/sdk/wechat');
const alipay = require('@readlib/sdk/alipay');
const app = require('./out/cjs-app.cjs');

app.main(process.argv[2]).then((result) => {
  const resolved = {
    main: require.resolve('@readlib/sdk'),
    wechat: require.resolve('@readlib/sdk/wechat'),
    alipay: require.resolve('@readlib/sdk/alipay'),
  };
  const exported = {
    main: Object.keys(sdk).sort(),
    wechat: Object.keys(wechat),
    alipay: Object.keys(alipay),
  };
  process.stdout.write(JSON.stringify({ result, resolved, exported }));
});
