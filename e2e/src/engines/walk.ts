import { newUser } from '@tm/test-support';
import { call, choose, click, evaluate, screenshotPath, type, until, untilEqual, type Engine, type EngineSession } from './engine.js';
import {
  agendaSectionOf,
  buttonNamed,
  checkboxNamed,
  checkboxLabel,
  daysAhead,
  dialogButton,
  dialogLayout,
  dialogNamed,
  dialogTicks,
  fieldFocused,
  fieldLabelled,
  fieldValue,
  linkNamed,
  menuItem,
  moreActions,
  nineInTheMorning,
  noDialogOpen,
  onTaskList,
  quickAddPreview,
  repeatPreview,
  serverDates,
  taskCheckbox,
  taskDates,
  taskIsFirst,
  taskIsGone,
  taskIsTicked,
  taskRow,
  toastSays,
} from './finders.js';

/**
 * The smoke walk every engine takes (the same steps, found and clicked the same way), with what it saw:
 * 1. sign up through the sign-up screen;
 * 2. add a task and complete it (the server holds it completed);
 * 3. live sync: the same person signed in in a second profile (another device) sees a task added in the
 *    first within a few seconds, without a reload, and the other way round (the live stream, EventSource,
 *    PRODUCT §10.8);
 * 4. at 375 px the row's pin and delete sit in a "More actions" menu (PRODUCT §2): pin, then delete, from it;
 * 5. the service worker registers and controls the page after a reload (Cache Storage, and IndexedDB for
 *    Workbox's expiration records);
 * 6. the date dialog (PRODUCT §10.14, §10.16, §10.17): a date typed into the browser's own date field, a weekly
 *    repeat on two chosen days and a reminder, the preview of the next five dates, Save; the row says the date
 *    and "Repeats", and a tick keeps the task open at its next date ("Task completed; it repeats");
 * 7. dates (PRODUCT §10.14, §10.15): quick add in plain words (its parser loaded on typing) shows what it
 *    understood before adding and gives the task a due date shown on its row; the Today screen (its own
 *    remote, opened from the header) lists it under Tomorrow and completes it;
 * 8. tabs in step (BroadcastChannel, PRODUCT §10.3): a logout sends the other tab of the profile to /login.
 * Screenshots of the list at desktop width and at 375 px (and of the open menu), of the date dialog with its
 * repeat and of the Today screen go to
 * .test-data/screenshots/engines-<engine>-*.png.
 */
export interface WalkReport {
  /** Milliseconds per step, in order. */
  steps: [string, number][];
  /** How long after one profile showed a change the other showed it: a task added in the first, a tick in the second. */
  syncMs: { aToB: number; bToA: number };
  /** The viewport the narrow steps ran at. */
  narrow: { width: number; height: number };
  serviceWorker: ServiceWorkerState;
}

export interface ServiceWorkerState {
  supported: boolean;
  /** Why registration failed, when it did (the page logs it and goes on without). */
  registrationError?: string;
  /** `navigator.serviceWorker.controller !== null` after a reload. */
  controlled: boolean;
  caches: string[];
  databases: string[];
}

/**
 * How soon a change shows in the other profile, at most. On a quiet machine it takes tens of milliseconds in a
 * page in front, up to a second in a page in the background (Firefox runs a hidden tab's timers once a second;
 * its two profiles are tabs of one window here); the report prints it. The bound leaves room for a busy build
 * machine; without the live stream the other profile would not show the change until focused or reloaded.
 */
const SYNC_WITHIN_MS = 10_000;

/** How long a page may take to show its first control after a navigation (a busy machine loads the app slowly). */
const PAGE_MS = 30_000;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

interface ServerTodo {
  title: string;
  completed: boolean;
  isPinned: boolean;
}

/**
 * Waits until the server holds the page's tasks as `expected` says (title, completed, pinned; any order): the
 * list changes at once and its call answers a moment later. Asked with the page's own cookies (a GET needs no
 * XSRF header).
 */
async function untilServerHolds(session: EngineSession, expected: ServerTodo[]): Promise<void> {
  const want = JSON.stringify([...expected].sort((x, y) => x.title.localeCompare(y.title)));
  await until(
    session,
    `the server to hold ${want}`,
    (wanted) =>
      fetch('/api/todo/fetch-todo', { credentials: 'same-origin' })
        .then((response) => response.json() as Promise<{ todos: ServerTodo[] }>)
        .then((body) => {
          const held = body.todos.map(({ title, completed, isPinned }) => ({ title, completed, isPinned })).sort((x, y) => x.title.localeCompare(y.title));
          return JSON.stringify(held) === wanted;
        }),
    want,
    10_000,
  );
}

/** The week as the date dialog orders its day tiles (PRODUCT §10.16): Monday first. */
const WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

type Day = ReturnType<typeof daysAhead>[number];

/** The days these many days from today, as {@link daysAhead} reads them in the page, one for each. */
async function days<const N extends readonly number[]>(session: EngineSession, ahead: N): Promise<{ -readonly [K in keyof N]: Day }> {
  return (await evaluate(session, daysAhead, ahead.join(','))) as { -readonly [K in keyof N]: Day };
}

async function addTask(session: EngineSession, title: string): Promise<void> {
  await type(session, 'the New task field', fieldLabelled, 'New task', title);
  await click(session, 'the Add Task button', buttonNamed, 'Add Task');
  await until(session, `the row “${title}”`, taskRow, title);
}

/** The titles of the first `count` rows of Reorder (PRODUCT §10.24), top to bottom. */
const firstRows = (count: string): string[] =>
  Array.from(document.querySelectorAll('li[data-todo-id] .reorder-row__title'))
    .slice(0, Number(count))
    .map((title) => title.textContent?.trim() ?? '');

/** Whether the rows stay where they are for 300 ms, with no animation running. */
const rowsAtRest = (): Promise<boolean> =>
  new Promise((resolve) => {
    const places = () => JSON.stringify(Array.from(document.querySelectorAll('li[data-todo-id]')).map((row) => row.getBoundingClientRect().top));
    const before = places();
    setTimeout(() => resolve(places() === before && document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity)), 300);
  });

/** The pairs of rows (titles) that lie over each other on screen, by more than a pixel. */
const overlappingRows = (): string[] => {
  const rows = Array.from(document.querySelectorAll('li[data-todo-id]')).map((row) => ({ title: row.textContent?.trim() ?? '', box: row.getBoundingClientRect() }));
  const pairs: string[] = [];
  for (const [index, row] of rows.entries()) {
    for (const other of rows.slice(index + 1)) if (row.box.bottom - 1 > other.box.top && other.box.bottom - 1 > row.box.top) pairs.push(`${row.title} / ${other.title}`);
  }
  return pairs;
};

/** The titles of the server's first `count` tasks, in the order it lists them (PRODUCT §10.24). */
const serverOrder = (count: string): Promise<string[]> =>
  fetch('/api/todo/fetch-todo', { credentials: 'same-origin' })
    .then((response) => response.json() as Promise<{ todos: { title: string }[] }>)
    .then((body) => body.todos.slice(0, Number(count)).map((todo) => todo.title));

/** Where a walk is: the step under way and the pages open, to tell what happened when it fails. */
export interface WalkProgress {
  step: string;
  pages: Map<string, EngineSession>;
}

/** Walks in `engine`; its sessions stay open (the engine closes them), so that a failure can be looked at. */
export async function smokeWalk(engine: Engine, progress: WalkProgress = { step: '', pages: new Map() }): Promise<WalkReport> {
  const steps: [string, number][] = [];
  const step = async <T>(name: string, body: () => Promise<T>): Promise<T> => {
    progress.step = name;
    const started = Date.now();
    const result = await body();
    steps.push([name, Date.now() - started]);
    return result;
  };
  const shot = (name: string) => screenshotPath(`engines-${engine.name}-${name}`);
  const account = newUser(`${engine.version.split(' ')[0] ?? engine.name} Walker`);
  const a = await engine.newSession(DESKTOP);
  progress.pages.set('first profile', a);
  await step('sign up', async () => {
    await a.goto('/signup');
    await until(a, 'the sign-up form', fieldLabelled, 'Full Name', PAGE_MS);
    await type(a, 'Full Name', fieldLabelled, 'Full Name', account.fullName);
    await type(a, 'Email', fieldLabelled, 'Email', account.email);
    await type(a, 'Password', fieldLabelled, 'Password', account.password);
    await click(a, 'the Sign Up button', buttonNamed, 'Sign Up');
    await until(a, 'the task list after sign-up', onTaskList, '', PAGE_MS);
  });

  await step('add and complete', async () => {
    await addTask(a, 'Buy oat milk');
    await addTask(a, 'Call the bank');
    await click(a, 'the checkbox of “Buy oat milk”', taskCheckbox, 'Buy oat milk');
    await until(a, 'the tick of “Buy oat milk”', taskIsTicked, 'Buy oat milk');
    await untilServerHolds(a, [
      { title: 'Buy oat milk', completed: true, isPinned: false },
      { title: 'Call the bank', completed: false, isPinned: false },
    ]);
  });

  const syncMs = await step('live sync between two profiles', async () => {
    const other = await engine.newSession(DESKTOP);
    progress.pages.set('second profile', other);
    await other.goto('/login');
    await until(other, 'the sign-in form', fieldLabelled, 'Email', PAGE_MS);
    await type(other, 'Email', fieldLabelled, 'Email', account.email);
    await type(other, 'Password', fieldLabelled, 'Password', account.password);
    await click(other, 'the Sign In button', buttonNamed, 'Sign In');
    await until(other, 'the task list after sign-in', onTaskList, '', PAGE_MS);
    await until(other, 'the row “Call the bank”', taskRow, 'Call the bank');
    // A mark on the page's window: still there afterwards means the page was not reloaded.
    await evaluate(other, () => {
      (window as unknown as { engineWalkMark: string }).engineWalkMark = 'this page';
    });

    // The change comes through the live stream (PRODUCT §10.8), not by fetching the list again.
    const listFetches = () => evaluate(other, () => performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname === '/api/todo/fetch-todo').length);
    const fetchesBefore = await listFetches();
    // Timed from when the first profile shows the change to when the second does.
    await addTask(a, 'Added on the first device');
    let started = Date.now();
    await until(other, 'the task added in the first profile', taskRow, 'Added on the first device', SYNC_WITHIN_MS);
    const aToB = Date.now() - started;
    expect(await listFetches()).toBe(fetchesBefore);
    expect(await evaluate(other, () => (window as unknown as { engineWalkMark?: string }).engineWalkMark)).toBe('this page');

    await click(other, 'the checkbox of “Added on the first device”', taskCheckbox, 'Added on the first device');
    await until(other, 'the tick in the second profile', taskIsTicked, 'Added on the first device');
    started = Date.now();
    await until(a, 'the tick made in the second profile', taskIsTicked, 'Added on the first device', SYNC_WITHIN_MS);
    return { aToB, bToA: Date.now() - started };
  });

  await step('screenshot at desktop width', () => a.screenshot(shot('desktop')));

  const narrow = await step('375 px: the More actions menu', async () => {
    const size = await a.resize(PHONE);
    // The menu layout is for viewports below 640 px (PRODUCT §2).
    expect(size.width).toBe(PHONE.width);
    await until(a, 'the More actions button of “Call the bank”', moreActions, 'Call the bank');
    expect(await evaluate(a, (title) => Array.from(document.querySelectorAll('li button')).some((button) => button.getAttribute('aria-label') === `Delete “${title}”`), 'Call the bank')).toBe(false);
    await a.screenshot(shot('375'));
    await click(a, 'More actions for “Call the bank”', moreActions, 'Call the bank');
    await until(a, 'the open menu', menuItem, 'Pin');
    expect(await evaluate(a, () => Array.from(document.querySelectorAll('[role="menu"] [role="menuitem"]')).map((item) => item.textContent?.trim()))).toEqual(['Edit', 'Details…', 'Pin', 'History', 'Due date…', 'Priority…', 'Labels…', 'Move to…', 'Delete']);
    await a.screenshot(shot('375-menu'));
    await click(a, 'the Pin item', menuItem, 'Pin');
    // Pinned: first in the list, and so on the server.
    await until(a, '“Call the bank” pinned at the top', taskIsFirst, 'Call the bank');
    await untilServerHolds(a, [
      { title: 'Buy oat milk', completed: true, isPinned: false },
      { title: 'Call the bank', completed: false, isPinned: true },
      { title: 'Added on the first device', completed: true, isPinned: false },
    ]);
    await click(a, 'More actions for “Call the bank”', moreActions, 'Call the bank');
    await click(a, 'the Delete item', menuItem, 'Delete');
    await until(a, '“Call the bank” gone', taskIsGone, 'Call the bank');
    await untilServerHolds(a, [
      { title: 'Buy oat milk', completed: true, isPinned: false },
      { title: 'Added on the first device', completed: true, isPinned: false },
    ]);
    await a.resize(DESKTOP);
    return size;
  });

  const serviceWorker = await step('service worker', async () => {
    const registered = await evaluate(a, () => {
      if (!('serviceWorker' in navigator)) return Promise.resolve({ supported: false, error: undefined as string | undefined });
      // The page registers it once loaded (shell/src/features/offline-cache): wait for it to be active, or
      // learn why it is not by registering again (the same registration, or the same refusal).
      const ready = navigator.serviceWorker.ready.then(() => ({ supported: true, error: undefined as string | undefined }));
      const refused = navigator.serviceWorker.register('/sw.js').then(
        () => new Promise<never>(() => undefined),
        (error: unknown) => ({ supported: true, error: String(error) }),
      );
      const late = new Promise<{ supported: boolean; error: string }>((resolve) => setTimeout(() => resolve({ supported: true, error: 'not active after 15 s' }), 15_000));
      return Promise.race([ready, refused, late]);
    });
    await a.reload();
    await until(a, 'the list after the reload', taskRow, 'Buy oat milk', PAGE_MS);
    const state = await evaluate(a, async () => ({
      controlled: 'serviceWorker' in navigator && navigator.serviceWorker.controller !== null,
      caches: 'caches' in window ? (await caches.keys()).sort() : [],
      databases: 'databases' in indexedDB ? (await indexedDB.databases()).map((database) => database.name ?? '').sort() : [],
    }));
    const result: ServiceWorkerState = { supported: registered.supported, ...(registered.error ? { registrationError: registered.error } : {}), ...state };
    // Each engine runs it on http://127.0.0.1 (a loopback address is a secure context): registered, in
    // control after the reload, the shell precached and a remote's files cached on first use; Workbox keeps
    // when it cached each of them in IndexedDB, to expire them.
    expect(result).toEqual({
      supported: true,
      controlled: true,
      caches: expect.arrayContaining([expect.stringMatching(/^workbox-precache/), 'tm-remote-assets']) as unknown,
      databases: expect.arrayContaining(['workbox-expiration']) as unknown,
    });
    return result;
  });

  const repeating = await step('dates: the date dialog, a weekly repeat and a reminder', async () => {
    const title = 'Water the plants';
    // Two days ahead, repeating weekly on that day's weekday and on the weekday three days later: the next
    // dates are 3, 7, 10, 14 and 17 days after it, and a tick (on schedule, PRODUCT §10.16) moves the task 3
    // days on. The days are read in the page: on the browser's clock, in its locale.
    const [picked, next, ...later] = await days(a, [2, 5, 9, 12, 16, 19]);
    const weekdays = [picked.weekday, next.weekday].sort((x, y) => WEEK.indexOf(x) - WEEK.indexOf(y));
    const rule = `FREQ=WEEKLY;BYDAY=${weekdays.map((day) => day.slice(0, 2).toUpperCase()).join(',')}`;
    await addTask(a, title);
    await click(a, `the Due date button of “${title}”`, buttonNamed, `Due date of “${title}”`);
    // The dialog's code is fetched at the first press (PRODUCT §10.14): it may take a moment to open.
    await until(a, 'the date dialog', dialogNamed, `Due date of “${title}”`, PAGE_MS);
    // As tall as what it holds: its buttons keep their 44 px, none pulled taller to fill the screen.
    expect(await evaluate(a, dialogLayout)).toEqual({ inside: true, sideways: false, tallestButton: 44 });
    // The focus starts in its Date field: the date is typed there, into the browser's own date field.
    await until(a, 'the focus in the Date field', fieldFocused, 'Date');
    await a.keys(picked.typed);
    await untilEqual(a, 'the Date field to hold the date typed', fieldValue, 'Date', picked.due);

    // Weekly starts with the date's own weekday ticked; the other day is chosen on its tile, then a reminder.
    await choose(a, 'the Repeat field', fieldLabelled, 'Repeat', 'Weekly');
    await click(a, `the ${next.weekday} tile`, checkboxLabel, next.weekday);
    await click(a, 'the 1 hour before reminder', checkboxLabel, '1 hour before');
    await untilEqual(a, 'the two days and the reminder ticked', dialogTicks, '', [...weekdays, '1 hour before']);
    await untilEqual(a, 'the preview of the next five dates', repeatPreview, '', `Next: ${[next, ...later].map((day) => day.words).join(' · ')}`);
    // Taller than the window now: it scrolls within it, nothing spilling out sideways.
    expect(await evaluate(a, dialogLayout)).toEqual({ inside: true, sideways: false, tallestButton: 44 });
    // The shot shows the Repeat group and what follows it, the same part of the dialog in every engine (a
    // click scrolls the dialog as far as its engine likes).
    await evaluate(a, () => document.querySelector('dialog[open] fieldset')?.scrollIntoView({ block: 'start' }));
    await a.screenshot(shot('date-dialog'));
    await click(a, 'the dialog’s Save button', dialogButton, 'Save');
    await until(a, 'the dialog closed', noDialogOpen);
    await untilEqual(a, `the row of “${title}”`, taskDates, title, { due: picked.due, words: `Due ${picked.words}`, plan: 'Repeats · 1 reminder', ticked: false });
    await untilEqual(a, `the server to hold “${title}” repeating`, serverDates, title, { due: picked.due, repeat: rule, reminders: [60], completed: false, repeatDone: 0 });

    // A tick completes this occurrence: the task stays open, at its next date (PRODUCT §10.16).
    await click(a, `the checkbox of “${title}”`, taskCheckbox, title);
    await until(a, 'the toast “Task completed; it repeats”', toastSays, 'Task completed; it repeats');
    await untilEqual(a, `the row of “${title}” at its next date`, taskDates, title, { due: next.due, words: `Due ${next.words}`, plan: 'Repeats · 1 reminder', ticked: false });
    await untilEqual(a, `the server to hold “${title}” at its next date`, serverDates, title, { due: next.due, repeat: rule, reminders: [60], completed: false, repeatDone: 1 });
    return title;
  });

  await step('dates: quick add and the Today screen', async () => {
    const [tomorrow] = await days(a, [1]);
    const nine = await evaluate(a, nineInTheMorning);
    await type(a, 'the New task field', fieldLabelled, 'New task', 'Pay rent tomorrow 9am');
    // What was understood shows under the field before adding, read with it (PRODUCT §10.14).
    await untilEqual(a, 'the quick-add preview', quickAddPreview, '', `Due Tomorrow ${nine} · “Pay rent”`, PAGE_MS);
    await click(a, 'the Add Task button', buttonNamed, 'Add Task');
    await untilEqual(a, 'the row of “Pay rent”', taskDates, 'Pay rent', { due: `${tomorrow.due}T09:00`, words: `Due Tomorrow ${nine}`, plan: null, ticked: false });
    await click(a, 'the Today link', linkNamed, 'Today');
    // Today lists it under Tomorrow, and the repeating task on its next day (PRODUCT §10.15).
    expect(await until(a, '“Pay rent” on the Today screen', agendaSectionOf, 'Pay rent', PAGE_MS)).toMatch(/^Tomorrow\b/);
    expect(await until(a, `“${repeating}” on the Today screen`, agendaSectionOf, repeating)).not.toBe('');
    await click(a, 'the checkbox of “Pay rent” on Today', checkboxNamed, 'Mark “Pay rent” as completed');
    await until(a, '“Pay rent” gone from Today', () => !Array.from(document.querySelectorAll('a')).some((link) => link.textContent === 'Pay rent'));
    await untilEqual(a, 'the server to hold “Pay rent” completed', serverDates, 'Pay rent', { due: `${tomorrow.due}T09:00`, repeat: null, reminders: null, completed: true, repeatDone: 0 });
    await a.screenshot(shot('today'));
    await click(a, 'the Tasks link', linkNamed, 'Tasks');
    await until(a, 'the task list again', onTaskList, '', PAGE_MS);
  });

  await step('your own order: a row dragged by its handle', async () => {
    // Newest first: the train above the parcel, until the parcel is dragged above it (PRODUCT §10.24).
    await addTask(a, 'Post the parcel');
    await addTask(a, 'Book the train');
    await click(a, 'the Reorder button', buttonNamed, 'Reorder');
    // The handles come with Reorder's code, fetched at the first press.
    await until(a, 'the handle of “Post the parcel”', buttonNamed, 'Reorder “Post the parcel”', PAGE_MS);
    // At the top of the page, the first rows are in view and stay where they are when the page's height changes
    // below them (a toast's band leaving it): the drag's points are read before the pointer goes down.
    await evaluate(a, () => window.scrollTo(0, 0));
    await untilEqual(a, 'the rows in Reorder', firstRows, '2', ['Book the train', 'Post the parcel']);
    await until(a, 'the rows at rest', rowsAtRest);
    await a.drag(call(buttonNamed, 'Reorder “Post the parcel”'), call(buttonNamed, 'Reorder “Book the train”'));
    await untilEqual(a, 'the parcel above the train', firstRows, '2', ['Post the parcel', 'Book the train']);
    await untilEqual(a, 'the server to keep the parcel above the train', serverOrder, '2', ['Post the parcel', 'Book the train']);
    // Once the rows have moved into their places, none lies over another.
    await untilEqual(a, 'the rows apart, each in its place', overlappingRows, '', []);
    await a.screenshot(shot('reorder'));
    await click(a, 'the Done reordering button', buttonNamed, 'Done reordering');
    await until(a, 'the rows without handles', () => document.querySelector('.reorder-rows') === null);
  });

  await step('tabs in step: logout reaches the other tab', async () => {
    const other = await a.newTab();
    progress.pages.set('second tab', other);
    await other.goto('/');
    await until(other, 'the list in the second tab', taskRow, 'Buy oat milk', PAGE_MS);
    // What the channel carries, heard by a listener of the test's own (the app's listener acts on it).
    await evaluate(other, () => {
      const heard: string[] = [];
      const channel = new BroadcastChannel('task-manager');
      channel.onmessage = (event: MessageEvent<{ type?: string }>) => heard.push(String(event.data.type));
      Object.assign(window, { engineWalkHeard: heard, engineWalkChannel: channel });
    });
    await click(a, 'the Logout button', buttonNamed, 'Logout');
    await until(a, '/login after logout', () => location.pathname === '/login');
    await until(other, 'the other tab on /login', () => location.pathname === '/login', '', 10_000);
    expect(await evaluate(other, () => (window as unknown as { engineWalkHeard: string[] }).engineWalkHeard)).toContain('signed-out');
  });

  return { steps, syncMs, narrow, serviceWorker };
}

/**
 * The longest a walk may take: about a minute on a quiet machine (the report prints it); the limit leaves
 * room for a busy build machine and stops the engine (its processes, its display) before jest's own timeout
 * would leave them running.
 */
const WALK_LIMIT_MS = 300_000;

/** Resolves with `promise`'s value, or with `fallback` after `ms` (a page too busy to answer a diagnosis). */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise.catch(() => fallback), new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);
}

/** What each open page showed when the walk failed: a screenshot, its address, its alerts and toasts. */
async function describeFailure(engine: Engine, progress: WalkProgress): Promise<string> {
  const lines = [`${engine.version}: the walk failed at "${progress.step}".`];
  for (const [name, session] of progress.pages) {
    const file = screenshotPath(`engines-${engine.name}-failed-${name.replace(/ /g, '-')}`);
    const shot = await within(session.screenshot(file).then(() => file), 10_000, 'no screenshot');
    const state = await within(
      evaluate(session, () =>
        [location.pathname, ...Array.from(document.querySelectorAll('[role="alert"], [role="status"]')).map((node) => node.textContent?.trim()).filter(Boolean)].join(' | '),
      ),
      10_000,
      'no answer',
    );
    lines.push(`  ${name}: ${state} (${shot})`);
  }
  lines.push("  the browser's last messages:", ...engine.output.map((line) => `    ${line}`));
  return lines.join('\n');
}

/**
 * The walk as one test: starts the engine against the app, walks, prints how long it took (a number for
 * people comparing engines, not an assertion), and stops the engine whatever happened.
 */
export function itWalks(start: (baseUrl: string) => Promise<Engine>, baseUrl: () => string): void {
  it('signs up, adds and completes a task, syncs it live to a second profile, pins and deletes from the 375 px menu, runs the service worker, repeats a task weekly with a reminder from the date dialog and ticks it on to its next date, dates a task in plain words and completes it from Today, drags a task by its handle into its own order, keeps tabs in step', async () => {
    const launched = Date.now();
    const engine = await start(baseUrl());
    const progress: WalkProgress = { step: 'starting', pages: new Map() };
    let deadline: ReturnType<typeof setTimeout> | undefined;
    try {
      const started = Date.now();
      const walk = smokeWalk(engine, progress);
      // Past the deadline the engine is stopped and the walk's pending command fails: no news then.
      walk.catch(() => undefined);
      const late = new Promise<never>((_, reject) => {
        deadline = setTimeout(() => reject(new Error(`the walk was still at "${progress.step}" after ${WALK_LIMIT_MS} ms`)), WALK_LIMIT_MS);
      });
      const report = await Promise.race([walk, late]).catch(async (error: unknown) => {
        console.warn(await describeFailure(engine, progress));
        throw error;
      });
      const sw = report.serviceWorker;
      console.log(
        [
          `${engine.version}: the walk took ${Date.now() - started} ms (the engine started in ${started - launched} ms)`,
          `  steps: ${report.steps.map(([name, ms]) => `${name} ${ms} ms`).join(', ')}`,
          `  live sync: first to second profile ${report.syncMs.aToB} ms, back ${report.syncMs.bToA} ms; narrow steps at ${report.narrow.width}×${report.narrow.height}`,
          `  service worker: ${sw.supported ? 'supported' : 'not supported'}${sw.registrationError ? `, registration refused (${sw.registrationError})` : ''}, controls the page after a reload: ${sw.controlled}; caches [${sw.caches.join(', ')}]; IndexedDB [${sw.databases.join(', ')}]`,
        ].join('\n'),
      );
    } finally {
      clearTimeout(deadline);
      await engine.close();
    }
  }, WALK_LIMIT_MS + 120_000);
}
