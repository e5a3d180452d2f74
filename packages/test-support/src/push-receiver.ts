// A local push service for tests and the bench (docs/PRODUCT.md §10.17, docs/ARCHITECTURE.md "Testing"): an
// HTTPS server on 127.0.0.1 that stands where a browser's push service would. Each subscription it hands out
// has a real P-256 key pair and auth secret, as a browser's has; a message sent to it is checked as a push
// service and the browser would: the VAPID JWT (RFC 8292: ES256 over the sender's key, audience, expiry) and
// the payload decrypted (RFC 8291, aes128gcm, with http_ece). Certificates come from the openssl command.
import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { decrypt } from 'http_ece';
import { tempDir } from './temp-dir.js';

export interface ReceivedPush {
  /** The subscription's id (the last segment of its endpoint). */
  id: string;
  /** The decrypted payload. */
  payload: string;
  /** The VAPID JWT's claims, its signature checked. */
  claims: { aud: string; exp: number; sub: string };
  /** The sender's VAPID public key (`k=` of the Authorization header). */
  vapidKey: string;
  ttl: number;
  receivedAt: number;
}

export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushReceiver {
  origin: string;
  /** A TLS agent that trusts this receiver's certificate, for the sender. */
  agent: Agent;
  /** The certificate as a PEM file, for another process's NODE_EXTRA_CA_CERTS (removed at close). */
  certFile: string;
  /** Every message received and accepted, in order. */
  received: ReceivedPush[];
  /** Messages refused because their signature or encryption was wrong (must stay empty). */
  rejected: string[];
  subscribe(): TestSubscription;
  /** What the push service answers for this subscription from now on (201 by default; 410 gone, 500 broken). */
  answer(id: string, status: number, body?: string): void;
  /** Resolves once `count` messages have been received (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

function selfSignedCertificate(): { key: Buffer; cert: Buffer; certFile: string; remove: () => void } {
  const dir = tempDir('tm-push-receiver-');
  const key = path.join(dir.dir, 'key.pem');
  const certFile = path.join(dir.dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], {
    stdio: 'ignore',
  });
  return { key: readFileSync(key), cert: readFileSync(certFile), certFile, remove: dir.remove };
}

/** Checks an ES256 JWT against an uncompressed P-256 public key; returns its claims or throws. */
function verifiedClaims(jwt: string, publicKey: string): ReceivedPush['claims'] {
  const [header, body, signature] = jwt.split('.');
  if (!header || !body || !signature) throw new Error('not a JWT');
  if ((JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string }).alg !== 'ES256') throw new Error('not ES256');
  const raw = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33, 65)) }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${header}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('bad VAPID signature');
  return JSON.parse(Buffer.from(body, 'base64url').toString()) as ReceivedPush['claims'];
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const { key, cert, certFile, remove } = selfSignedCertificate();
  const subscriptions = new Map<string, { ecdh: ECDH; auth: Buffer; status: number; body: string }>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = (req.url ?? '').split('/').pop() ?? '';
      const subscription = subscriptions.get(id);
      if (!subscription) {
        res.writeHead(404).end();
        return;
      }
      try {
        const auth = /^vapid t=([^,]+), k=(.+)$/.exec(req.headers.authorization ?? '');
        if (!auth?.[1] || !auth[2]) throw new Error(`no VAPID authorization: ${req.headers.authorization ?? ''}`);
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const claims = verifiedClaims(auth[1], auth[2]);
        const payload = decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth }).toString('utf8');
        if (subscription.status < 300) received.push({ id, payload, claims, vapidKey: auth[2], ttl: Number(req.headers.ttl), receivedAt: Date.now() });
        for (const wake of waiters) wake();
        res.writeHead(subscription.status, { 'content-type': 'text/plain' }).end(subscription.body);
      } catch (error) {
        rejected.push(error instanceof Error ? error.message : String(error));
        res.writeHead(400).end('refused');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ ca: cert, keepAlive: true });
  return {
    origin,
    agent,
    certFile,
    received,
    rejected,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const id = randomBytes(8).toString('hex');
      const auth = randomBytes(16);
      subscriptions.set(id, { ecdh, auth, status: 201, body: '' });
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) } };
    },
    answer(id, status, body = '') {
      const subscription = subscriptions.get(id);
      if (subscription) Object.assign(subscription, { status, body });
    },
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the push receiver got ${received.length} of ${count} messages in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      remove();
    },
  };
}
