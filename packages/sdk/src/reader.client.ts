import type { ShelfParam } from '@readlib/contracts';
import type { ReaderRoutes } from '@readlib/contracts/routes';
import type { ReaderClient, ReaderClientOptions } from './reader-client.types.js';
import { type ReaderRouteTypes, readerRouteCalls } from './route-calls.generated.js';
import { routeMethods } from './route-client.js';
import { createTransport } from './transport.js';

/** The `shelf` parameter: JSON of exactly {openId, fileName}, URL-encoded by the query string. */
const shelfQuery = ({ openId, fileName }: ShelfParam) => ({ shelf: JSON.stringify({ openId, fileName }) });

/** A client of the reader API; see `ReaderClient` for the methods. */
export function createReaderClient(options: ReaderClientOptions): ReaderClient {
  const send = createTransport('reader', options);
  const methods = routeMethods<ReaderRoutes, ReaderRouteTypes>(readerRouteCalls, (_route, request, call) =>
    send(request, call),
  );
  return {
    ...methods,
    saveShelf: (shelf, call) => methods.saveShelf(shelfQuery(shelf), call),
    removeShelf: (shelf, call) => methods.removeShelf(shelfQuery(shelf), call),
  };
}
