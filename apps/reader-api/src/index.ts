import type { AppConfig } from '@readlib/config';
import type { App } from '@readlib/http';
import { buildApp, type ReaderDeps } from './app.js';

export { buildApp, type ReaderDeps } from './app.js';

/** Builds the app and listens on HOST:READER_PORT; the caller closes the app, then its database. */
export async function startReaderServer(config: AppConfig, deps: ReaderDeps): Promise<App> {
  const app = await buildApp(config, deps);
  await app.listen({ host: config.host, port: config.readerPort });
  return app;
}
