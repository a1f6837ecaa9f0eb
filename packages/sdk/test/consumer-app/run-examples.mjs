// Runs the browser examples of the README and the SDK page, compiled to out-examples/ by
// test/packed-sdk.test.ts, one after another against the services whose URLs it passes, with the names
// they take from the page around them (examples-prelude.d.ts) defined as globals; prints, as JSON,
// "ok" or the error of each.
import { readFile } from 'node:fs/promises';
import { createAdminClient } from '@readlib/sdk';

const [readerUrl, adminUrl, username, password, bookPath, uploadPath, ...names] = process.argv.slice(2);

// a book of the catalogue for the reader's examples, and another EPUB for the upload examples
const admin = createAdminClient({ baseUrl: adminUrl, timeoutMs: 30_000 });
await admin.login(username, password);
const book = await admin.uploadBook(new Uint8Array(await readFile(bookPath)), 'examples-book.epub');
await admin.createBook({ fileName: book.fileName });
const upload = new File([await readFile(uploadPath)], 'upload.epub', { type: 'application/epub+zip' });

const session = new Map();
Object.assign(globalThis, {
  openId: 'examples-reader',
  fileName: book.fileName,
  username,
  password,
  baseUrl: readerUrl,
  router: { push: () => {} },
  fileInput: { files: [upload] },
  bar: { value: 0 },
  controller: new AbortController(),
  file: upload,
  admin,
  sessionStorage: {
    getItem: (key) => session.get(key) ?? null,
    setItem: (key, value) => session.set(key, String(value)),
  },
});

const results = {};
for (const name of names) {
  try {
    // each example finds the page's admin signed in: an example before it may have logged out
    await admin.getUserInfo().catch(() => admin.login(username, password));
    await import(`./out-examples/${name}.js`);
    results[name] = 'ok';
  } catch (err) {
    results[name] = String(err?.stack ?? err);
  }
}
process.stdout.write(JSON.stringify(results));
