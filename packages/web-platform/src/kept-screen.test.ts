import { deviceUser, forgetDeviceUser, KEPT_SCREEN_KEY, rememberDeviceUser, type KeptScreen } from '@tm/api-client';
import { KEPT_SCREEN_MAX_CHARS, keepScreen, keptMarkup } from './kept-screen-writer';
import { releaseKeptScreen } from './kept-screen';

// The kept screen (docs/PRODUCT.md §10.4 "The kept screen"): what the copy holds, and whose it is. The
// browser test (e2e/src/offline.e2e.test.ts) paints it from index.html and hands over to the app.

const ADA = { _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', fullName: 'Ada Lovelace', email: 'ada@example.com' };
const BOB = { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', fullName: 'Bob Kahn', email: 'bob@example.com' };

/** A task screen as the app draws it: ids, a typed draft, a ticked box, a toast, a menu, a status. */
function drawScreen(rows = 3): HTMLElement {
  document.body.innerHTML = `
    <div id="root">
      <main id="main">
        <label for="new-task">New task</label>
        <input id="new-task" name="title" value="a half-typed secret" placeholder="What would you like to accomplish?">
        <p class="tasks-sync__summary" role="status" data-kept-text="Showing the tasks kept on this device.">All changes synced. Last synced today at 09:00.</p>
        <ul aria-labelledby="list-heading">
          ${Array.from({ length: rows }, (_, row) => `<li data-todo-id="t${row}"><input type="checkbox" aria-describedby="d${row}"><span>Task ${row}</span></li>`).join('')}
        </ul>
        <textarea id="note">typed note</textarea>
        <div role="menu"><button>Delete</button></div>
        <dialog open>History</dialog>
      </main>
      <div data-rht-toaster=""><div role="status">Task deleted. Undo</div></div>
    </div>`;
  const root = document.getElementById('root')!;
  root.querySelector<HTMLInputElement>('li input')!.checked = true;
  return root;
}

/** The rows' tops as a browser would lay them out: 60 px apart from `start`. */
function layOutRows(root: HTMLElement, start: number): void {
  root.querySelectorAll('li').forEach((item, row) => {
    item.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: start + row * 60, width: 300, height: 56 });
  });
}

const stored = (): KeptScreen | null => JSON.parse(localStorage.getItem(KEPT_SCREEN_KEY) ?? 'null') as KeptScreen | null;

describe('the kept screen', () => {
  afterEach(() => {
    localStorage.clear();
    document.body.innerHTML = '';
    document.head.innerHTML = '';
  });

  it('copies what the screen shows, with no ids, no typed text, nothing that comes and goes, ticks as they are', () => {
    const html = keptMarkup(drawScreen(), 800);
    const copy = document.createElement('div');
    copy.innerHTML = html;
    expect(copy.querySelectorAll('[id], [name], [for], [data-todo-id], [aria-describedby], [aria-labelledby], [data-kept-text]')).toHaveLength(0);
    expect(html).not.toContain('a half-typed secret');
    expect(html).not.toContain('typed note');
    expect(copy.querySelector('[data-rht-toaster], [role="menu"], dialog')).toBeNull();
    // The status says what is true on a return visit, not what was true when it was kept.
    expect(copy.querySelector('.tasks-sync__summary')?.textContent).toBe('Showing the tasks kept on this device.');
    // A tick is a property the markup does not carry: the copy carries it as an attribute.
    expect([...copy.querySelectorAll<HTMLInputElement>('li input')].map((box) => box.hasAttribute('checked'))).toEqual([true, false, false]);
    expect([...copy.querySelectorAll('li span')].map((title) => title.textContent)).toEqual(['Task 0', 'Task 1', 'Task 2']);
    // The page itself is untouched.
    expect(document.querySelectorAll('[data-todo-id]')).toHaveLength(3);
    expect(document.querySelector<HTMLInputElement>('#new-task')!.value).toBe('a half-typed secret');
  });

  it('reaches one and a half screens down the page, counting what is scrolled away', () => {
    const root = drawScreen(40);
    layOutRows(root, 200);
    const rowsIn = (html: string) => {
      const copy = document.createElement('div');
      copy.innerHTML = html;
      return copy.querySelectorAll('li').length;
    };
    // Tops 200, 260, … up to 1.5 × 600 = 900: rows 0–11.
    expect(rowsIn(keptMarkup(root, 600))).toBe(12);
    // Scrolled 300 px down: the same rows are 300 px further down the page.
    expect(rowsIn(keptMarkup(root, 600, 300))).toBe(7);
  });

  it('is kept for the person whose tasks the device keeps, at the address it shows, with the page’s style sheets of this origin', () => {
    drawScreen();
    document.head.innerHTML = `<link rel="stylesheet" href="/assets/shell.css"><link rel="stylesheet" href="https://cdn.example.com/other.css"><link rel="preload" as="style" href="/assets/later.css">`;
    keepScreen();
    expect(stored()).toBeNull();
    rememberDeviceUser(ADA);
    window.history.replaceState(null, '', '/?filter=active');
    keepScreen();
    const kept = stored()!;
    expect(kept).toMatchObject({ user: ADA._id, path: '/?filter=active', css: [`${window.location.origin}/assets/shell.css`] });
    expect(kept.html).toContain('Task 1');
    window.history.replaceState(null, '', '/');
  });

  it('goes with the person: another person kept on the device, or none, removes it', () => {
    drawScreen();
    rememberDeviceUser(ADA);
    keepScreen();
    expect(stored()?.user).toBe(ADA._id);
    // The same person again keeps it.
    rememberDeviceUser(ADA);
    expect(stored()?.user).toBe(ADA._id);
    rememberDeviceUser(BOB);
    expect(stored()).toBeNull();
    keepScreen();
    expect(stored()?.user).toBe(BOB._id);
    forgetDeviceUser();
    expect(deviceUser()).toBeNull();
    expect(stored()).toBeNull();
  });

  it('keeps nothing too long for the storage, and no stale copy either', () => {
    const root = drawScreen();
    rememberDeviceUser(ADA);
    keepScreen();
    expect(stored()).not.toBeNull();
    root.querySelector('ul')!.insertAdjacentHTML('beforeend', `<li><span>${'x'.repeat(KEPT_SCREEN_MAX_CHARS)}</span></li>`);
    keepScreen();
    expect(stored()).toBeNull();
  });

  it('is not written while the kept screen itself is shown, and gives way to the app at once', () => {
    drawScreen();
    rememberDeviceUser(ADA);
    document.documentElement.setAttribute('data-kept-screen', '');
    document.body.insertAdjacentHTML('afterbegin', '<div class="kept-screen" inert aria-hidden="true"><p>Old copy</p></div>');
    keepScreen();
    expect(stored()).toBeNull();
    releaseKeptScreen();
    expect(document.querySelector('.kept-screen')).toBeNull();
    expect(document.documentElement.hasAttribute('data-kept-screen')).toBe(false);
    keepScreen();
    expect(stored()?.html).not.toContain('Old copy');
  });
});
