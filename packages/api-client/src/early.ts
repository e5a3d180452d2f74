import { CLIENT_TIMEOUT_MS } from '@tm/contracts';
import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { silenceTimeoutError } from './silence.js';

export { dropEarlyResponses, EARLY_GLOBAL, takeEarlyResponse, type EarlyRequests, type KeptScreen } from './early-store.js';

/**
 * Reads a body as text, failing when nothing arrives for `silenceMs` (docs/PRODUCT.md §9): the
 * count starts again with every chunk, so a long answer on a slow link is read to its end.
 */
async function readWithSilence(response: Response, silenceMs: number, config: InternalAxiosRequestConfig): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return response.text();
  const decoder = new TextDecoder();
  let text = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (;;) {
      const { done, value } = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(silenceTimeoutError(config, silenceMs)), silenceMs);
        }),
      ]);
      clearTimeout(timer);
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    void reader.cancel();
    throw error instanceof AxiosError ? error : new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An early answer as the HTTP client would have given it: the parsed JSON of a 2xx, else the same AxiosError
 * a call through axios throws (a non-2xx with its response and body, a network failure, the silence
 * timeout), so every caller's handling of errors is unchanged.
 */
export async function earlyAnswer<T>(pending: Promise<Response>, url: string, silenceMs: number = CLIENT_TIMEOUT_MS): Promise<T> {
  const config = { url, method: 'get', headers: new AxiosHeaders() } as InternalAxiosRequestConfig;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const response = await Promise.race([
    pending,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(silenceTimeoutError(config, silenceMs)), silenceMs);
    }),
  ])
    .catch((error: unknown) => {
      throw error instanceof AxiosError ? error : new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
    })
    .finally(() => clearTimeout(timer));
  const text = await readWithSilence(response, silenceMs, config);
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text, as axios does.
  }
  if (response.ok) return data as T;
  const answer = { data, status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), config } as AxiosResponse;
  throw new AxiosError(`Request failed with status code ${response.status}`, response.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST, config, undefined, answer);
}
