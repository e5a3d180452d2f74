import type { CDPSession, Page } from 'playwright-core';
import { useBrowser } from './browser.js';
import { openDevice, signUpOn, until } from './phone.js';
import { addListViaApi, addTasksViaApi, describeInBrowser, recordTaskWrites, seriousAxeViolations, serverTitles, serverTodos, snapshot, toastWith } from './app.js';

// Your own order (docs/PRODUCT.md §10.24) in the built app: Reorder, then a drag with the mouse on a desktop
// (1280 px, light) and with a finger on a phone (375 px, touch only, dark), and the keyboard's pick-up, move and
// drop with what the live region says; each move one write, the row in its new place before the server
// answers, the order kept by the server across a reload; a row dragged onto a list of the sidebar moves there.

const browser = useBrowser();

const handle = (page: Page, title: string) => page.getByRole('button', { name: `Reorder “${title}”` });
/** The titles of the rows with handles, top to bottom. */
const handleTitles = (page: Page) => page.locator('li[data-todo-id] .reorder-row__title').allInnerTexts();
/** The titles of the usual rows, top to bottom. */
const titlesShown = (page: Page) => page.locator('li[data-todo-id] .tasks-item__title').allInnerTexts();
/** What dnd-kit's live region says now. */
const liveRegion = (page: Page) => page.locator('[id^="DndLiveRegion"]').innerText();
/** Everything the live region has said since Reorder was turned on (it holds only the latest). */
const said = (page: Page) => page.evaluate(() => (window as unknown as { reorderSaid: string[] }).reorderSaid);
const hasSaid = (page: Page, text: string) => until(() => said(page), (all) => all.includes(text));
const dragging = (page: Page, title: string) => page.locator('li.reorder-row--dragging').filter({ hasText: title }).waitFor();

/**
 * Drops with `drop` and counts the animation frames from the dropping event (`pointerup` or `keydown`) to the
 * first frame that shows the rows as `expected`: 1 is the frame right after the drop (docs/PERFORMANCE.md "Your
 * own order": a moved task shows in its new place within one frame).
 */
async function framesToShow(page: Page, event: 'pointerup' | 'keydown', expected: string[], drop: () => Promise<void>): Promise<number> {
  await page.evaluate(
    ([type, want]) => {
      const state = { frames: 0, shown: 0 };
      (window as unknown as { moveFrames: typeof state }).moveFrames = state;
      const order = () => Array.from(document.querySelectorAll('li[data-todo-id] .reorder-row__title'), (title) => title.textContent).join();
      window.addEventListener(
        type,
        () => {
          const frame = () => {
            state.frames += 1;
            if (order() === want) state.shown = state.frames;
            else if (state.frames < 600) requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        },
        { capture: true, once: true },
      );
    },
    [event, expected.join()] as const,
  );
  await drop();
  const frames = await until(
    () => page.evaluate(() => (window as unknown as { moveFrames: { shown: number } }).moveFrames.shown),
    (shown) => shown > 0,
  );
  return frames;
}

async function centre(page: Page, title: string): Promise<{ x: number; y: number }> {
  const box = await handle(page, title).boundingBox();
  if (!box) throw new Error(`no handle for ${title}`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Opens the list with `titles` added oldest first (so shown the other way round) and turns Reorder on. */
async function reorderWith(page: Page, touch: boolean, titles: string[]): Promise<void> {
  await addTasksViaApi(page, titles);
  await page.reload();
  await page.locator('li[data-todo-id]').filter({ hasText: titles[0] as string }).waitFor();
  const reorder = page.getByRole('button', { name: 'Reorder', exact: true });
  if (touch) await reorder.tap();
  else await reorder.click();
  await handle(page, titles[0] as string).waitFor();
  // The whole list in the window: a drag's start and end points are on screen.
  await page.locator('.reorder-rows').evaluate((list) => list.scrollIntoView({ block: 'center' }));
  await page.locator('[id^="DndLiveRegion"]').evaluate((region) => {
    const all: string[] = [];
    (window as unknown as { reorderSaid: string[] }).reorderSaid = all;
    // Two announcements in one task (a pick-up and its first "over") reach the observer together: each
    // replaced text is read from its record, then the text it has now.
    const add = (text: string | null | undefined) => {
      if (text && text !== all.at(-1)) all.push(text);
    };
    new MutationObserver((records) => {
      for (const record of records) add(record.type === 'characterData' ? record.oldValue : Array.from(record.removedNodes, (node: Node) => node.textContent).join(''));
      add(region.textContent);
    }).observe(region, { childList: true, characterData: true, characterDataOldValue: true, subtree: true });
  });
}

/** A finger on the screen, through the browser's own touch input (Playwright's touchscreen only taps). */
async function touchDrag(cdp: CDPSession, page: Page, from: { x: number; y: number }, to: { x: number; y: number }, title: string, overText: string) {
  const point = (x: number, y: number) => ({ touchPoints: [{ x: Math.round(x), y: Math.round(y) }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', ...point(from.x, from.y) });
  // Beyond the browser's touch slop (a few px it keeps for a tap), towards the target.
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', ...point(from.x, from.y + 24 * Math.sign(to.y - from.y)) });
  await dragging(page, title);
  for (let step = 1; step <= 5; step += 1) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', ...point(from.x, from.y + ((to.y - from.y) * step) / 5) });
  }
  await hasSaid(page, overText);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

describeInBrowser('your own order (docs/PRODUCT.md §10.24)', () => {
  it('desktop (1280 px, light): a mouse drag and the keyboard move a task, one write each, kept across a reload', async () => {
    const { context, page, errors } = await openDevice(browser(), { width: 1280, height: 800, touch: false, theme: 'light' });
    await signUpOn(page, 'Rita Reorder', false);
    await reorderWith(page, false, ['Alpha', 'Bravo', 'Charlie', 'Delta']);
    expect(await handleTitles(page)).toEqual(['Delta', 'Charlie', 'Bravo', 'Alpha']);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await snapshot(page, 'reorder-desktop-handles-light', { fullPage: false });

    // The mouse: Alpha, last, dragged by its handle onto Delta, first.
    const writes = recordTaskWrites(page);
    const from = await centre(page, 'Alpha');
    const to = await centre(page, 'Delta');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x, from.y - 10, { steps: 2 });
    await dragging(page, 'Alpha');
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await hasSaid(page, 'Task “Alpha” is over position 1 of 4.');
    await snapshot(page, 'reorder-desktop-dragging-light', { fullPage: false });
    const mouseFrames = await framesToShow(page, 'pointerup', ['Alpha', 'Delta', 'Charlie', 'Bravo'], () => page.mouse.up());
    // In its new place at once (the list's own copy), and one write to the server.
    expect(await handleTitles(page)).toEqual(['Alpha', 'Delta', 'Charlie', 'Bravo']);
    await until(() => serverTitles(page), (titles) => titles.join() === 'Alpha,Delta,Charlie,Bravo');
    expect(writes.all()).toEqual([{ method: 'PUT', path: expect.stringMatching(/^\/todo\/update-todo\//), body: expect.objectContaining({ updateData: { order: expect.any(String) } }) }]);
    expect(await liveRegion(page)).toBe('Task “Alpha” dropped at position 1 of 4.');

    // The keyboard: Space picks Bravo up, ↑ moves it, Space drops it; each step said in the live region.
    await handle(page, 'Bravo').focus();
    await page.keyboard.press('Space');
    // Picked up (the handle says it is pressed), and over its own place once the rows are measured: the arrows
    // move it from then on. (The pick-up's own words come just before and are checked in reorder.test.tsx.)
    await hasSaid(page, 'Task “Bravo” is over position 4 of 4.');
    expect(await handle(page, 'Bravo').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('ArrowUp');
    await hasSaid(page, 'Task “Bravo” is over position 3 of 4.');
    const keyFrames = await framesToShow(page, 'keydown', ['Alpha', 'Delta', 'Bravo', 'Charlie'], () => page.keyboard.press('Space'));
    await hasSaid(page, 'Task “Bravo” dropped at position 3 of 4.');
    // The new place shows in the first frame after the drop, by mouse as by keyboard.
    console.log(`reorder: the moved row in its new place ${mouseFrames} frame(s) after a mouse drop, ${keyFrames} after a keyboard drop`);
    expect([mouseFrames, keyFrames]).toEqual([1, 1]);
    expect(await handleTitles(page)).toEqual(['Alpha', 'Delta', 'Bravo', 'Charlie']);
    await until(() => serverTitles(page), (titles) => titles.join() === 'Alpha,Delta,Bravo,Charlie');
    expect(writes.count('PUT', /^\/todo\/update-todo\//)).toBe(2);

    // ↑ on the first row goes nowhere: picked up with the keyboard, a task moves among the rows only, never
    // towards a list of the sidebar above it; Escape puts it back.
    const top = (await page.locator('li.reorder-row').first().boundingBox())?.y ?? 0;
    await handle(page, 'Alpha').focus();
    await page.keyboard.press('Space');
    await hasSaid(page, 'Task “Alpha” is over position 1 of 4.');
    expect(await page.locator('.reorder-list-target').count()).toBe(0);
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(300);
    expect((await page.locator('li.reorder-row--dragging').boundingBox())?.y).toBeGreaterThanOrEqual(top - 1);
    await page.keyboard.press('Escape');
    await hasSaid(page, 'Moving cancelled. Task “Alpha” is back at position 1 of 4.');
    expect(await page.locator('.reorder-list-target').count()).toBe(1);
    expect(writes.count('PUT', /^\/todo\/update-todo\//)).toBe(2);

    // Kept by the server: a reload shows the usual rows in that order.
    await page.reload();
    await until(() => titlesShown(page), (titles) => titles.join() === 'Alpha,Delta,Bravo,Charlie');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('desktop (1280 px, dark): a row dragged onto a list of the sidebar moves there, in one write', async () => {
    const { context, page, errors } = await openDevice(browser(), { width: 1280, height: 800, touch: false, theme: 'dark' });
    await signUpOn(page, 'Lena Lists', false);
    const errands = await addListViaApi(page, 'Errands');
    await page.goto('/lists/inbox');
    await reorderWith(page, false, ['Stamps', 'Parcel', 'Keys']);
    const target = page.locator('.tasks-page__lists .lists-nav__row').filter({ hasText: 'Errands' });
    // Every other list of the sidebar is outlined as a place to drop a task while Reorder is on.
    await expect(page.locator('.tasks-page__lists .reorder-list-target').count()).resolves.toBe(1);

    const writes = recordTaskWrites(page);
    const from = await centre(page, 'Parcel');
    const box = await target.boundingBox();
    if (!box) throw new Error('no Errands in the sidebar');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x, from.y - 10, { steps: 2 });
    await dragging(page, 'Parcel');
    await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2, { steps: 10 });
    await hasSaid(page, 'Task “Parcel” is over the list “Errands”. Drop it to move it there.');
    await target.locator('.reorder-list-target--over').waitFor();
    await snapshot(page, 'reorder-desktop-onto-list-dark', { fullPage: false });
    await page.mouse.up();

    // It leaves the Inbox at once, the list counts it, and the server holds it there: one write, its list only.
    await hasSaid(page, 'Task “Parcel” moved to the list “Errands”.');
    await until(() => handleTitles(page), (titles) => titles.join() === 'Keys,Stamps');
    await toastWith(page, 'Task moved').waitFor();
    await until(() => target.locator('.lists-nav__count').innerText(), (text) => text === '1');
    await until(() => serverTodos(page), (todos) => todos.find((todo) => todo.title === 'Parcel')?.listId === errands._id);
    expect(writes.all()).toEqual([{ method: 'PUT', path: expect.stringMatching(/^\/todo\/update-todo\//), body: expect.objectContaining({ updateData: { listId: errands._id } }) }]);
    // The lists are targets no longer once Reorder is done.
    await page.getByRole('button', { name: 'Done reordering' }).click();
    await expect(page.locator('.reorder-list-target').count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('phone (375 px, touch, dark): a finger drags a task by its handle, one write, kept across a reload', async () => {
    const { context, page, errors } = await openDevice(browser(), { width: 375, height: 812, touch: true, theme: 'dark' });
    await signUpOn(page, 'Tom Touch', true);
    await reorderWith(page, true, ['Oats', 'Pears', 'Quinces']);
    expect(await handleTitles(page)).toEqual(['Quinces', 'Pears', 'Oats']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await snapshot(page, 'reorder-phone-handles-dark', { fullPage: false });

    const writes = recordTaskWrites(page);
    const cdp = await context.newCDPSession(page);
    await touchDrag(cdp, page, await centre(page, 'Oats'), await centre(page, 'Quinces'), 'Oats', 'Task “Oats” is over position 1 of 3.');
    await hasSaid(page, 'Task “Oats” dropped at position 1 of 3.');
    expect(await handleTitles(page)).toEqual(['Oats', 'Quinces', 'Pears']);
    await until(() => serverTitles(page), (titles) => titles.join() === 'Oats,Quinces,Pears');
    expect(writes.count('PUT', /^\/todo\/update-todo\//)).toBe(1);
    await snapshot(page, 'reorder-phone-moved-dark', { fullPage: false });

    await page.getByRole('button', { name: 'Done reordering' }).tap();
    await until(() => titlesShown(page), (titles) => titles.join() === 'Oats,Quinces,Pears');
    await page.reload();
    await until(() => titlesShown(page), (titles) => titles.join() === 'Oats,Quinces,Pears');
    expect(errors).toEqual([]);
    await context.close();
  });
});
