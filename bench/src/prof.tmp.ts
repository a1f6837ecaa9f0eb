import { testConfig } from '@readlib/config';
import { createDb } from '@readlib/data';
import { buildApp } from '@readlib/reader-api';
const h = createDb({ dialect: 'sqlite', file: '.data/books-10000.db' });
const app = await buildApp(testConfig({ STORAGE_DIR: '/tmp', PUBLIC_BASE_URL: 'http://127.0.0.1:3000', RATE_LIMIT_PER_MINUTE: '100000000' }), { db: h.db, logger: false });
const url = process.argv[2]!;
for (let i = 0; i < 20000; i++) await app.inject(url);
await app.close(); await h.destroy();
