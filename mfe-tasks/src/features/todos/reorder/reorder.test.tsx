import { addTodo, fetchTodos, http, updateTodo } from '@tm/api-client';
import { renderPage } from '@tm/web-test-support';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { allRowsEntered, RouterProbe, shownTitles, signedInWithCelebrationStubs } from '../../../test/page-helpers';

// Your own order (docs/PRODUCT.md §10.24) on the page, against the real gateway and services: Reorder, the
// handles, Alt+↑/↓ and the keyboard pick-up with what a screen reader hears, one request per move.

function Page() {
  return (
    <>
      <TaskListPage />
      <RouterProbe />
    </>
  );
}

/** Each update's `updateData` the page sends from now on, observed on the HTTP client (not replaced). */
function recordUpdates(): { updates: unknown[]; stop: () => void } {
  const updates: unknown[] = [];
  const id = http.interceptors.request.use((config) => {
    const body = (typeof config.data === 'string' ? JSON.parse(config.data) : config.data) as { updateData?: unknown } | undefined;
    if (config.url?.includes('/todo/update-todo/')) updates.push(body?.updateData);
    return config;
  });
  return { updates, stop: () => http.interceptors.request.eject(id) };
}

const handle = (title: string) => screen.getByRole('button', { name: `Reorder “${title}”` });
const handleTitles = () => screen.queryAllByRole('button', { name: /^Reorder “/ }).map((button) => button.getAttribute('aria-label')?.slice(9, -1));
const politeSaying = (text: string) => screen.queryAllByRole('status').filter((region) => region.textContent === text);

/**
 * Everything dnd-kit's live region says from now on: it holds only the latest words, and a pick-up's are
 * followed at once by where the task is over, so each replaced text is read from its mutation record.
 */
async function recordDragWords(): Promise<string[]> {
  const region = await waitFor(() => {
    const found = document.querySelector('[id^="DndLiveRegion"]');
    if (!found) throw new Error('no live region yet');
    return found;
  });
  const all: string[] = [];
  const add = (text: string | null | undefined) => {
    if (text && text !== all.at(-1)) all.push(text);
  };
  new MutationObserver((records) => {
    for (const record of records) add(record.type === 'characterData' ? record.oldValue : Array.from(record.removedNodes, (node) => node.textContent).join(''));
    add(region.textContent);
  }).observe(region, { childList: true, characterData: true, characterDataOldValue: true, subtree: true });
  return all;
}

async function openWith(...titles: string[]) {
  for (const title of titles) await addTodo(title);
  renderPage(<Page />);
  await screen.findByText(titles[0] as string);
  await allRowsEntered();
}

describe('Reorder (docs/PRODUCT.md §10.24)', () => {
  signedInWithCelebrationStubs();

  it('shows a handle per row in the list’s order, and the usual rows again when done', async () => {
    const user = userEvent.setup();
    await openWith('One', 'Two', 'Three');
    expect(shownTitles()).toEqual(['Three', 'Two', 'One']);
    await user.click(screen.getByRole('button', { name: 'Reorder' }));
    await waitFor(() => expect(handleTitles()).toEqual(['Three', 'Two', 'One']));
    expect(handle('Two')).toHaveAccessibleDescription(/press Space or Enter on its handle/);
    await user.click(screen.getByRole('button', { name: 'Done reordering' }));
    expect(handleTitles()).toEqual([]);
    expect(shownTitles()).toEqual(['Three', 'Two', 'One']);
  });

  it('Alt+↑ and Alt+↓ move the focused task one place at once, in one request each, said in words; the server keeps it', async () => {
    const user = userEvent.setup();
    await openWith('One', 'Two', 'Three');
    await user.click(screen.getByRole('button', { name: 'Reorder' }));
    const recorded = recordUpdates();
    act(() => handle('One').focus());
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    // The new place shows at once, before the server answers.
    expect(handleTitles()).toEqual(['Three', 'One', 'Two']);
    expect(politeSaying('Task “One” dropped at position 2 of 3.')).toHaveLength(1);
    expect(handle('One')).toHaveFocus();
    await waitFor(() => expect(recorded.updates).toHaveLength(1));
    expect(recorded.updates[0]).toEqual({ order: expect.stringMatching(/^[0-9A-Za-z]+$/) });
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(handleTitles()).toEqual(['One', 'Three', 'Two']);
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(politeSaying('Task “One” is already first of its kind (pinned, open or completed tasks stay together).')).toHaveLength(1);
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(handleTitles()).toEqual(['Three', 'One', 'Two']);
    expect(politeSaying('Task “One” dropped at position 2 of 3.')).toHaveLength(1);
    await waitFor(() => expect(recorded.updates).toHaveLength(3));
    recorded.stop();
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Three', 'One', 'Two']));
  });

  it('Space picks a task up and Escape puts it back, each said in the live region; nothing is sent', async () => {
    const user = userEvent.setup();
    await openWith('One', 'Two', 'Three');
    await user.click(screen.getByRole('button', { name: 'Reorder' }));
    const recorded = recordUpdates();
    const words = await recordDragWords();
    act(() => handle('Two').focus());
    await user.keyboard('[Space]');
    await waitFor(() => expect(words).toContain('Picked up task “Two”. It is at position 2 of 3.'));
    expect(handle('Two')).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard('[Escape]');
    await waitFor(() => expect(words.at(-1)).toBe('Moving cancelled. Task “Two” is back at position 2 of 3.'));
    expect(handleTitles()).toEqual(['Three', 'Two', 'One']);
    expect(recorded.updates).toEqual([]);
    recorded.stop();
  });

  it('keeps pinned tasks first and moves a task among its own kind; once moved, completed tasks show after open ones', async () => {
    const user = userEvent.setup();
    const { todo: pinned } = await addTodo('Pinned one');
    await updateTodo(pinned._id, { isPinned: true });
    await addTodo('Open one');
    await addTodo('Open two');
    const { todo: done } = await addTodo('Done one');
    await updateTodo(done._id, { completed: true });
    renderPage(<Page />);
    await screen.findByText('Done one');
    await allRowsEntered();
    // Nobody moved a task yet: the spec's order, the completed task in its place.
    expect(shownTitles()).toEqual(['Pinned one', 'Done one', 'Open two', 'Open one']);
    await user.click(screen.getByRole('button', { name: 'Reorder' }));
    await waitFor(() => expect(handleTitles()).toEqual(['Pinned one', 'Done one', 'Open two', 'Open one']));
    expect(within(handle('Pinned one').closest('li') as HTMLElement).getByText('Pinned')).toBeInTheDocument();
    act(() => handle('Open one').focus());
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(handleTitles()).toEqual(['Pinned one', 'Open one', 'Open two', 'Done one']);
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(politeSaying('Task “Open one” is already first of its kind (pinned, open or completed tasks stay together).')).toHaveLength(1);
    act(() => handle('Done one').focus());
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(politeSaying('Task “Done one” is already last of its kind (pinned, open or completed tasks stay together).')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Done reordering' }));
    expect(shownTitles()).toEqual(['Pinned one', 'Open one', 'Open two', 'Done one']);
  });

  it('is not offered under a search or a filter other than the status one', async () => {
    await addTodo('One', { priority: 1 });
    await addTodo('Two');
    renderPage(<Page />, { route: '/?priority=1' });
    await screen.findByText('One');
    expect(screen.queryByRole('button', { name: 'Reorder' })).toBeNull();
  });
});
