import { FakeEventSource } from '@tm/web-test-support';
import { cursorAfter, openTodoStream, type TodoStreamHandlers } from './todo-stream';

const todo = { _id: '0123456789abcdef01234567', title: 'From elsewhere', completed: false, isPinned: false, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };

function handlers(): jest.Mocked<Required<TodoStreamHandlers>> {
  return { onChange: jest.fn(), onReset: jest.fn(), onReady: jest.fn(), onConnectedChange: jest.fn(), onGaveUp: jest.fn() };
}

describe('cursorAfter', () => {
  it('compares change-feed positions as whole numbers, exactly, up to 16 digits', () => {
    expect(cursorAfter('10', '9')).toBe(true);
    expect(cursorAfter('9', '10')).toBe(false);
    expect(cursorAfter('7', '7')).toBe(false);
    expect(cursorAfter('9007199254740993', '9007199254740992')).toBe(true); // beyond Number's exact integers
    expect(cursorAfter('007', '6')).toBe(true);
    expect(cursorAfter('1', undefined)).toBe(true);
  });
});

describe('openTodoStream', () => {
  let uninstall: () => void;
  beforeEach(() => {
    uninstall = FakeEventSource.install();
  });
  afterEach(() => {
    uninstall();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('opens /api/todo/events after the given cursor, and is live once the server says ready', () => {
    const on = handlers();
    const stream = openTodoStream(on, { after: () => '41' });
    const source = FakeEventSource.latest()!;
    expect(source.url).toBe('/api/todo/events?after=41');
    expect(stream.connected).toBe(false);

    source.emit('ready', { cursor: '41' });
    expect(stream.connected).toBe(true);
    expect(on.onConnectedChange).toHaveBeenCalledWith(true);
    expect(on.onReady).toHaveBeenCalledWith({ cursor: '41' });
    stream.close();
    expect(source.closed).toBe(true);
    expect(stream.connected).toBe(false);
    expect(on.onConnectedChange).toHaveBeenLastCalledWith(false);
  });

  it('opens without `after` when the page has no position yet', () => {
    const stream = openTodoStream(handlers(), { after: () => undefined, baseURL: '/base' });
    expect(FakeEventSource.latest()!.url).toBe('/base/todo/events');
    stream.close();
  });

  it('passes change and reset events on, and ignores malformed ones', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const on = handlers();
    const stream = openTodoStream(on, { after: () => '1' });
    const source = FakeEventSource.latest()!;

    const change = { id: '2', origin: 'someone-else', saved: [todo], removed: ['0123456789abcdef0123456a'] };
    source.emit('change', change, '2');
    expect(on.onChange).toHaveBeenCalledWith(change);
    expect(stream.connected).toBe(true); // a change proves the stream live too

    source.emit('change', 'not json');
    source.emit('change', { id: 'x', origin: null, saved: [], removed: [] });
    source.emit('change', { id: '3', origin: null, saved: [{ nope: true }], removed: [] });
    expect(on.onChange).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(3);

    source.emit('reset', { cursor: '99' });
    expect(on.onReset).toHaveBeenCalledWith({ cursor: '99' });
    stream.close();
  });

  it('is not live while the browser reconnects a dropped stream, and live again when it is back', () => {
    const on = handlers();
    const stream = openTodoStream(on, { after: () => '1' });
    const source = FakeEventSource.latest()!;
    source.emit('ready', { cursor: '1' });

    source.drop();
    expect(stream.connected).toBe(false);
    expect(on.onGaveUp).not.toHaveBeenCalled();
    expect(FakeEventSource.instances).toHaveLength(1); // the browser's own reconnection, with Last-Event-ID

    source.emit('ready', { cursor: '5' });
    expect(stream.connected).toBe(true);
    expect(on.onConnectedChange.mock.calls).toEqual([[true], [false], [true]]);
    stream.close();
  });

  it('opens a new stream from the page\'s current position after the browser gave up, with a growing pause', () => {
    jest.useFakeTimers();
    const on = handlers();
    let cursor = '1';
    const stream = openTodoStream(on, { after: () => cursor });
    FakeEventSource.latest()!.refuse();
    expect(on.onGaveUp).toHaveBeenCalledTimes(1);
    expect(stream.connected).toBe(false);

    cursor = '8';
    jest.advanceTimersByTime(999);
    expect(FakeEventSource.instances).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(FakeEventSource.latest()!.url).toBe('/api/todo/events?after=8');

    FakeEventSource.latest()!.refuse();
    jest.advanceTimersByTime(1999);
    expect(FakeEventSource.instances).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(3);

    // Closed while waiting: nothing opens any more.
    FakeEventSource.latest()!.refuse();
    stream.close();
    jest.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(3);
  });

  it('backs off a failure that repeats: a stream that keeps dropping before it is ready is given up and opened more and more slowly', () => {
    jest.useFakeTimers();
    const on = handlers();
    const stream = openTodoStream(on, { after: () => '1' });
    // The first drop is the browser's to retry (it reconnects by itself, with Last-Event-ID).
    FakeEventSource.latest()!.drop();
    expect(on.onGaveUp).not.toHaveBeenCalled();
    // The second in a row, with no `ready` between, is given up: the browser would retry it every 2 s forever.
    FakeEventSource.latest()!.drop();
    expect(on.onGaveUp).toHaveBeenCalledTimes(1);
    expect(FakeEventSource.latest()!.closed).toBe(true);

    // Each new stream that fails again waits twice as long: 1, 2, 4, 8, 16, 30, 30 … s.
    const opened: number[] = [];
    let at = 0;
    for (const pause of [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]) {
      jest.advanceTimersByTime(pause - 1);
      at += pause - 1;
      expect(FakeEventSource.instances).toHaveLength(opened.length + 1);
      jest.advanceTimersByTime(1);
      at += 1;
      opened.push(at);
      expect(FakeEventSource.instances).toHaveLength(opened.length + 1);
      // The same failure at once: the server answered a stream that broke before `ready`, or not a stream.
      if (opened.length % 2 === 0) FakeEventSource.latest()!.drop();
      else FakeEventSource.latest()!.refuse();
    }
    // Seven attempts in about 91 s, never one at the browser's pace.
    expect(opened).toEqual([1_000, 3_000, 7_000, 15_000, 31_000, 61_000, 91_000]);
    expect(on.onGaveUp).toHaveBeenCalledTimes(8);

    // A stream that gets to `ready` starts the pauses over.
    jest.advanceTimersByTime(30_000);
    FakeEventSource.latest()!.emit('ready', { cursor: '1' });
    FakeEventSource.latest()!.refuse();
    const count = FakeEventSource.instances.length;
    jest.advanceTimersByTime(1_000);
    expect(FakeEventSource.instances).toHaveLength(count + 1);
    stream.close();
  });

  it('after a reset, a new stream starts from the reset\'s position, never from the gap the page still holds', () => {
    jest.useFakeTimers();
    const on = handlers();
    // The page's list is still the old one (its fetch after the reset has not come back yet).
    const stream = openTodoStream(on, { after: () => '3' });
    expect(FakeEventSource.latest()!.url).toBe('/api/todo/events?after=3');
    FakeEventSource.latest()!.emit('reset', { cursor: '5000' }, '5000');
    expect(on.onReset).toHaveBeenCalledWith({ cursor: '5000' });
    FakeEventSource.latest()!.emit('ready', { cursor: '5000' }, '5000');
    FakeEventSource.latest()!.emit('change', { id: '5001', origin: null, saved: [todo], removed: [] }, '5001');
    // The gateway goes away: the browser gives up on this stream.
    FakeEventSource.latest()!.refuse();
    jest.advanceTimersByTime(1_000);
    expect(FakeEventSource.latest()!.url).toBe('/api/todo/events?after=5001');
    stream.close();
  });

  it('takes the page\'s position when it is the later one (the page fetched a newer list meanwhile)', () => {
    jest.useFakeTimers();
    let cursor = '7';
    const stream = openTodoStream(handlers(), { after: () => cursor });
    FakeEventSource.latest()!.emit('ready', { cursor: '7' }, '7');
    cursor = '12';
    FakeEventSource.latest()!.refuse();
    jest.advanceTimersByTime(1_000);
    expect(FakeEventSource.latest()!.url).toBe('/api/todo/events?after=12');
    stream.close();
  });

  it('never connects where there is no EventSource (the page keeps its fallback)', () => {
    uninstall();
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'EventSource');
    expect(saved).toBeUndefined();
    const on = handlers();
    const stream = openTodoStream(on, { after: () => '1' });
    expect(stream.connected).toBe(false);
    expect(() => stream.close()).not.toThrow();
    expect(on.onConnectedChange).not.toHaveBeenCalled();
    uninstall = FakeEventSource.install();
  });
});
