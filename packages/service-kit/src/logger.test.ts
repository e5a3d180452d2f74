import { PassThrough } from 'node:stream';
import { chooseLogFormat, createLogger, type LogFormat } from './logger.js';

/** The lines one logger writes, in the given form. */
function capture(format: LogFormat) {
  const out = new PassThrough();
  let written = '';
  out.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return { logger: createLogger('svc-test', 'info', format, out), lines: () => written.split('\n').filter(Boolean) };
}

describe('chooseLogFormat', () => {
  it('writes readable lines to a terminal and JSON anywhere else', () => {
    expect(chooseLogFormat({}, true)).toBe('pretty');
    expect(chooseLogFormat({}, false)).toBe('json');
  });

  it('lets LOG_FORMAT decide either way (npm start asks for pretty behind its pipes)', () => {
    expect(chooseLogFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(chooseLogFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });

  it('ignores an empty or unknown LOG_FORMAT (the config loader refuses an unknown one at start-up)', () => {
    expect(chooseLogFormat({ LOG_FORMAT: '' }, false)).toBe('json');
    expect(chooseLogFormat({ LOG_FORMAT: 'yaml' }, true)).toBe('pretty');
  });
});

describe('createLogger', () => {
  it('json: one JSON object per line, with the process name and an ISO time', () => {
    const { logger, lines } = capture('json');
    logger.info({ port: 8080 }, 'listening');
    expect(lines()).toHaveLength(1);
    expect(JSON.parse(lines()[0]!)).toMatchObject({ level: 30, service: 'svc-test', port: 8080, msg: 'listening', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('pretty: one readable line per entry; a request reads as method, path, status and time', () => {
    const { logger, lines } = capture('pretty');
    logger.info({ port: 8080 }, 'listening');
    logger.info({ reqId: 'r-1', req: { method: 'GET', url: '/api/todo/fetch-todo' }, res: { statusCode: 200 }, responseTime: 4 }, 'request completed');
    logger.error({ err: new Error('store down') }, 'readiness check failed');
    // pino-pretty colours only when the output supports it; compare the text.
    const escape = String.fromCharCode(27);
    const text = lines().map((line) => line.split(escape).map((part, index) => (index === 0 ? part : part.replace(/^\[[0-9;]*m/, ''))).join(''));
    expect(text[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(svc-test\): listening \{"port":8080\}$/);
    expect(text[1]).toMatch(/INFO \(svc-test\): GET \/api\/todo\/fetch-todo 200 4 ms \{"reqId":"r-1"\}$/);
    expect(text[2]).toMatch(/ERROR \(svc-test\): readiness check failed/);
    // An error's stack follows on its own lines, readable as a stack.
    expect(text.slice(3).join('\n')).toMatch(/Error: store down\n\s+at /);
    expect(text.some((line) => line.startsWith('{'))).toBe(false);
  });
});
