import { addTodo, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { stubAudioPlay } from '../../../test/browser-stubs';
import { entranceDelay } from '../constants';

// framer-motion animates in jsdom too (requestAnimationFrame), writing inline opacity on the rows.
const sleep = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
const opacities = () => screen.getAllByRole('listitem').map((row) => Number(row.style.opacity));

describe('the row animations (docs/PRODUCT.md §2, §9)', () => {
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
  });
  afterEach(() => jest.restoreAllMocks());

  it('staggers the entrance by 0.3 s per row on the first load', async () => {
    for (const title of ['third', 'second', 'first']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('third');

    expect(opacities().slice(1)).toEqual([0, 0]);
    // Every row can be used while it waits for its turn (issue #18): none is inert.
    const rows = screen.getAllByRole('listitem');
    expect(rows.map((row) => row.hasAttribute('inert'))).toEqual([false, false, false]);
    // Ordering, not wall-clock checks: each row starts 0.3 s after the one above it.
    await waitFor(() => expect(opacities()[1]).toBeGreaterThan(0));
    expect(opacities()[0]).toBeGreaterThan(opacities()[1] ?? 1);
    expect(opacities()[2]).toBe(0);
    await waitFor(() => expect(opacities()).toEqual([1, 1, 1]), { timeout: 2000 });
    await waitFor(() => expect(rows.filter((row) => row.hasAttribute('inert'))).toEqual([]));
  });

  it('brings a waiting row in at once when it gets the focus, and takes its click (issue #18)', async () => {
    const user = userEvent.setup();
    for (const title of ['third', 'second', 'first']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('third');
    expect(opacities()[2]).toBe(0);
    // The third row waits 0.6 s for its turn; Tab reaches it at once, and it comes in.
    screen.getByRole('checkbox', { name: 'Mark “third” as completed' }).focus();
    await waitFor(() => expect(opacities()[2]).toBeGreaterThan(0), { timeout: 300 });
    await user.click(screen.getByRole('checkbox', { name: 'Mark “third” as completed' }));
    expect(await screen.findByRole('checkbox', { name: 'Mark “third” as not completed' })).toBeChecked();
  });

  it('staggers only the first 8 rows: every further row enters together with the 8th', async () => {
    const titles = Array.from({ length: 10 }, (_, index) => `task ${index}`);
    for (const title of [...titles].reverse()) await addTodo(title); // newest first: "task 0" on top
    renderPage(<TaskListPage />);
    await screen.findByText('task 9');
    expect(entranceDelay(7)).toBeCloseTo(2.1);
    expect(entranceDelay(9)).toBeCloseTo(2.1);

    // Row 6 starts 0.3 s before row 7; rows 7, 8 and 9 start at the same time.
    await waitFor(() => expect(opacities()[6]).toBeGreaterThan(0), { timeout: 3000 });
    expect(opacities().slice(7)).toEqual([0, 0, 0]);
    await waitFor(() => expect(opacities()[7]).toBeGreaterThan(0), { timeout: 1000 });
    expect(opacities()[8]).toBeGreaterThan(0);
    expect(opacities()[9]).toBeGreaterThan(0);
    await waitFor(() => expect(opacities()).toEqual(titles.map(() => 1)), { timeout: 1000 });
  });

  it('lets a row added later enter without a stagger delay', async () => {
    const user = userEvent.setup();
    for (const title of ['one', 'two', 'three']) {
      const { todo } = await addTodo(title);
      await updateTodo(todo._id, { isPinned: true }); // pinned rows stay above, so the new row is 4th
    }
    renderPage(<TaskListPage />);
    await screen.findByText('one');
    await waitFor(() => expect(opacities()).toEqual([1, 1, 1]), { timeout: 2000 });

    await user.type(screen.getByRole('textbox', { name: 'New task' }), 'later');
    await user.click(screen.getByRole('button', { name: 'Add Task' }));
    await screen.findByText('later');
    expect(screen.getAllByRole('listitem').map((row) => row.textContent)).toEqual(['three', 'two', 'one', 'later']);
    expect(screen.getAllByRole('listitem')[3]).not.toHaveAttribute('inert'); // no delay: usable from the start
    await sleep(400); // a stagger at index 3 would hold it invisible for 0.9 s
    expect(opacities()[3]).toBeGreaterThan(0);
  });

  it('animates a deleted row out over 0.5 s, unreachable meanwhile', async () => {
    const user = userEvent.setup();
    await addTodo('Going away');
    renderPage(<TaskListPage />);
    await screen.findByText('Going away');
    await waitFor(() => expect(opacities()).toEqual([1]));
    const row = screen.getByRole('listitem');

    await user.click(within(row).getByRole('button', { name: 'Delete “Going away”' }));
    await sleep(200);
    expect(row).toBeInTheDocument();
    expect(row).toHaveAttribute('inert');
    expect(Number(row.style.opacity)).toBeLessThan(1);
    await waitFor(() => expect(row).not.toBeInTheDocument(), { timeout: 1000 });
  });
});
