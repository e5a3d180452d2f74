/**
 * Limits the spec leaves open (PRODUCT §5, §9: "not shown"); these are ours, and every service and client
 * reads them from here.
 */
export const LIMITS = {
  fullName: { min: 1, max: 100 },
  email: { max: 254 },
  password: { min: 8, max: 128 },
  todoTitle: { min: 1, max: 500 },
  /** Largest JSON request body the gateway and the services accept. */
  bodyBytes: 16 * 1024,
} as const;

/** Browser-side request timeout (PRODUCT §9); the gateway answers 504 before it. */
export const CLIENT_TIMEOUT_MS = 10_000;

/** Cookie and header names of the double-submit XSRF protection (PRODUCT §9). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Base path of every call, on the gateway's origin (PRODUCT §7). */
export const API_BASE = '/api';
