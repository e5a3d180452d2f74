import { XSRF_COOKIE, XSRF_HEADER } from '@tm/contracts';

export interface ApiResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  setCookies: string[];
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Send the XSRF header (from the cookie) on non-safe methods; default true, as axios does. */
  xsrf?: boolean;
}

/**
 * Talks to the gateway as a browser with axios would: keeps cookies, and echoes the `XSRF-TOKEN` cookie in
 * the `X-XSRF-TOKEN` header on every non-safe method.
 */
export class ApiClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get xsrfToken(): string | undefined {
    return this.cookies.get(XSRF_COOKIE);
  }

  /** The raw `Cookie` header this client sends (to replay it later, as an attacker would). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0 && headers.cookie === undefined) headers.cookie = this.cookieHeader();
    const safe = method === 'GET' || method === 'HEAD';
    if (!safe && options.xsrf !== false && this.xsrfToken && headers[XSRF_HEADER] === undefined) {
      headers[XSRF_HEADER] = this.xsrfToken;
    }
    let body = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie();
    this.absorb(setCookies);
    const text = await response.text();
    return { status: response.status, body: parseJson(text) as T, headers: response.headers, setCookies };
  }

  get<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResult<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T>> {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T>> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  delete<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResult<T>> {
    return this.request<T>('DELETE', path, options);
  }

  private absorb(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
