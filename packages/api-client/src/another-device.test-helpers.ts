// Test helper (no tests here, never bundled: nothing but tests imports it). For the component tests of the
// web packages and apps that need a second browser on the same account; it would sit well in
// @tm/web-test-support.
import { request } from 'node:http';

export interface DeviceAnswer {
  status: number;
  body: unknown;
}

/** A call of the other device: `method` on `path` (under the gateway's origin), with a JSON body. */
export type DeviceCall = (method: string, path: string, body?: unknown) => Promise<DeviceAnswer>;

/**
 * The account of `email` signed in on another device: a client with cookies of its own (jsdom's belong to the
 * page under test), talking to the real test gateway (jsdom's origin) over HTTP from Node, echoing the XSRF
 * cookie as the app does. It sends no Origin header, as a client that is not a browser.
 */
export async function anotherDevice(email: string, password: string): Promise<DeviceCall> {
  const cookies = new Map<string, string>();
  const call: DeviceCall = (method, path, body) =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { accept: 'application/json', cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
      const xsrf = cookies.get('XSRF-TOKEN');
      if (method !== 'GET' && xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
      if (data !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(new TextEncoder().encode(data).length) });
      const sent = request(new URL(path, window.location.origin), { method, headers }, (response) => {
        for (const line of response.headers['set-cookie'] ?? []) {
          const pair = line.split(';')[0] ?? '';
          const name = pair.slice(0, pair.indexOf('='));
          const value = pair.slice(pair.indexOf('=') + 1);
          if (value) cookies.set(name, value);
          else cookies.delete(name);
        }
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined }));
      });
      sent.on('error', reject);
      sent.end(data);
    });
  await call('GET', '/api/user/me');
  const signedIn = await call('POST', '/api/user/login', { email, password });
  if (signedIn.status !== 200) throw new Error(`the other device could not sign in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  return call;
}
