import { API_BASE, CLIENT_TIMEOUT_MS, XSRF_COOKIE, XSRF_HEADER } from '@tm/contracts';
import axios, { type AxiosInstance } from 'axios';
import { browserIsOffline, offlineError } from './errors.js';

const IOS = /iPad|iPhone|iPod/;

/**
 * The one HTTP client of the frontends (PRODUCT §7): base `/api` on the app's origin, cookies sent, 10 s
 * timeout, and axios' built-in XSRF double-submit with the gateway's cookie and header names.
 */
export function createHttpClient(baseURL: string = API_BASE): AxiosInstance {
  const client = axios.create({
    baseURL,
    withCredentials: true,
    timeout: CLIENT_TIMEOUT_MS,
    xsrfCookieName: XSRF_COOKIE,
    xsrfHeaderName: XSRF_HEADER,
    headers: { Accept: 'application/json' },
  });
  // docs/PRODUCT.md §8: an action taken offline fails at once with a clear message. It is never queued to
  // replay later (the data library's online-only mode is off too, see @tm/web-platform's QueryClient).
  client.interceptors.request.use((config) => {
    if (browserIsOffline()) throw offlineError(config);
    return config;
  });
  client.interceptors.response.use((response) => {
    // PRODUCT §7: on iOS a Set-Cookie value is mirrored into document.cookie. Browsers never expose
    // Set-Cookie to scripts, so with our first-party cookies this is a no-op kept for fidelity.
    const setCookie = response.headers['set-cookie'] as unknown;
    if (typeof navigator !== 'undefined' && IOS.test(navigator.userAgent) && Array.isArray(setCookie)) {
      for (const cookie of setCookie) document.cookie = String(cookie);
    }
    return response;
  });
  return client;
}

export const http = createHttpClient();
