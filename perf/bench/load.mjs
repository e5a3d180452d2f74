// One bounded autocannon load against 127.0.0.1, with latencies kept in microseconds (autocannon's own
// histogram rounds to whole milliseconds, which hides the difference between a 0.6 ms and a 1.4 ms answer).
import autocannon from 'autocannon';
import hdr from 'hdr-histogram-js';

/**
 * @typedef {object} LoadOptions
 * @property {string} url
 * @property {string} [method]
 * @property {Record<string, string>} [headers]
 * @property {string} [body]
 * @property {number} connections
 * @property {number} seconds
 * @property {() => Record<string, string>} [freshHeaders] headers that must be current for every request
 *   (the signed identity: its timestamp has a freshness window); asked for on each request through
 *   autocannon's `setupRequest` hook, so they never go stale however long the run.
 */

/**
 * @typedef {object} LoadResult
 * @property {number} requests  answers received
 * @property {number} ok        2xx answers
 * @property {number} rps       answers per second
 * @property {number} p50       ms
 * @property {number} p95       ms
 * @property {number} p99       ms
 * @property {number} errors    non-2xx + connection errors (autocannon counts timeouts among them)
 * @property {number} bytesPerAnswer
 */

/** @param {LoadOptions} options @returns {Promise<LoadResult>} */
export async function runLoad({ url, method = 'GET', headers = {}, body, connections, seconds, freshHeaders }) {
  const micros = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 });
  const request = freshHeaders
    ? { setupRequest: (/** @type {{ headers?: Record<string, string> }} */ req) => ({ ...req, headers: { ...req.headers, ...freshHeaders() } }) }
    : {};
  let ok = 0;
  let bytes = 0;
  const instance = autocannon({ url, method, headers, body, connections, duration: seconds, requests: [request] });
  instance.on('response', (_client, statusCode, resBytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) ok += 1;
    bytes += resBytes;
    micros.recordValue(Math.max(1, Math.round(responseTime * 1000)));
  });
  const result = await instance;
  const answered = micros.totalCount;
  const ms = (/** @type {number} */ p) => round(micros.getValueAtPercentile(p) / 1000, 2);
  const figures = {
    requests: answered,
    ok,
    rps: round(answered / seconds, 0),
    p50: ms(50),
    p95: ms(95),
    p99: ms(99),
    errors: result.non2xx + result.errors,
    bytesPerAnswer: answered ? Math.round(bytes / answered) : 0,
  };
  micros.destroy();
  return figures;
}

/** @param {number} value @param {number} digits */
export function round(value, digits = 1) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
