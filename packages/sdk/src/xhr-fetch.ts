import type { FetchInit, FetchResponseLike } from './transport.types.js';

/**
 * A fetch over `XMLHttpRequest`, the one browser API that reports an upload's progress
 * (`xhr.upload.onprogress`, fed to `init.onUploadProgress`). It behaves as the SDK expects of a fetch:
 * it resolves with any HTTP status, rejects with a `TypeError` when no answer came and with the
 * signal's reason when `init.signal` aborts it. Listening to `xhr.upload` makes a cross-origin upload
 * send a CORS preflight first.
 */
export function xhrFetch(url: string, init: FetchInit): Promise<FetchResponseLike> {
  return new Promise((resolve, reject) => {
    const { signal, onUploadProgress } = init;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(init.method, url);
    for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value);
    if (onUploadProgress) {
      // a body of unknown length reports total 0: the SDK takes the file's size instead
      xhr.upload.onprogress = (e) =>
        onUploadProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    }
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      const text = xhr.responseText;
      resolve({
        status: xhr.status,
        headers: { get: (name) => xhr.getResponseHeader(name) },
        text: async () => text,
        json: async () => JSON.parse(text),
      });
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError(`network error (XMLHttpRequest ${init.method} ${url})`));
    };
    xhr.onabort = () => {
      done();
      reject(signal?.reason ?? new DOMException('the request was aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(init.body ?? null);
  });
}
