// The part of http_ece (RFC 8188 encrypted content encoding; web-push's own dependency) the local push
// receiver uses; the package ships no types.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  interface DecryptParams {
    version: 'aes128gcm';
    privateKey: ECDH;
    authSecret: Buffer;
  }
  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
