import { API_BASE, CLIENT_TIMEOUT_MS, XSRF_COOKIE, XSRF_HEADER } from '@tm/contracts';
import axios, { type AxiosInstance } from 'axios';

const IOS = /iPad|iPhone|iPod/;

/**
 * The one HTTP client of the frontends (SPEC §7): base `/api` on the app's origin, cookies sent, 10 s
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
  client.interceptors.response.use((response) => {
    // SPEC §7: on iOS a Set-Cookie value is mirrored into document.cookie. Browsers never expose
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

/** The server's `message` for a failed call, or `fallback` when it gave none (network error, timeout). */
export function errorMessage(error: unknown, fallback: string): string {
  if (axios.isAxiosError(error)) {
    const message = (error.response?.data as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return fallback;
}
