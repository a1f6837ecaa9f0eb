import type { ShelfParam } from '@readlib/contracts';
import type { ReaderClient, ReaderClientOptions } from './reader-client.types.js';
import { createTransport, type QueryInput } from './transport.js';

/** The `shelf` parameter: JSON of exactly {openId, fileName}, URL-encoded by the query string. */
const shelfQuery = ({ openId, fileName }: ShelfParam) => ({ shelf: JSON.stringify({ openId, fileName }) });

/** A client of the reader API; see `ReaderClient` for the methods. */
export function createReaderClient(options: ReaderClientOptions): ReaderClient {
  const send = createTransport('reader', options);
  const get = async <T>(path: string, query?: QueryInput): Promise<T> =>
    (await send({ method: 'GET', path, query })).data as T;
  const plain = async <T>(path: string, okStatuses: number[]): Promise<T> =>
    (await send({ method: 'GET', path, plain: { okStatuses } })) as T;
  const ack = async (path: string, query: QueryInput): Promise<void> => {
    await send({ method: 'GET', path, query });
  };

  return {
    getHome: (query) => get('/book/home/v2', query),
    getRecommendBatch: () => get('/book/home/recommend/v2'),
    getFreeReadBatch: () => get('/book/home/freeRead/v2'),
    getHotBookBatch: () => get('/book/home/hotBook/v2'),
    getHotSearch: () => get('/book/hot-search'),
    listCategories: () => get('/book/category/list/v2'),
    searchBooks: (query) => get('/book/search', query),
    searchList: (query) => get('/book/search-list', query),
    getBookDetail: (query) => get('/book/detail', query),
    getBookContents: (query) => get('/book/contents', query),
    saveRank: (query) => ack('/book/rank/save', query),
    getShelf: (query) => get('/book/shelf/get', query),
    saveShelf: (shelf) => ack('/book/shelf/save', shelfQuery(shelf)),
    removeShelf: (shelf) => ack('/book/shelf/remove', shelfQuery(shelf)),
    registerUser: async (body) => {
      await send({ method: 'POST', path: '/user/register', json: body });
    },
    getUserDay: (query) => get('/user/day', query),
    getWechatOpenId: (query) => get('/openId/get', query),
    getPayPlatformOpenId: (query) => get('/openId/get/payplatform', query),
    getAlipayOpenId: (query) => get('/openId/get/alipay', query),
    health: () => plain('/healthz', [200]),
    ready: () => plain('/readyz', [200, 503]),
  };
}
