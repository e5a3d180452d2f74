import { addTodo, fetchTodos, updateTodo } from '@tm/api-client';
import { savePreferences } from '@tm/web-platform';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { playedSources, restoreMatchMedia, stubAudioPlay, stubCanvas, stubMatchMedia } from '../../../test/browser-stubs';
import { allRowsEntered, shownTitles, sleep, tickToasts } from '../../../test/page-helpers';
import { TOUCH_ONLY_QUERY } from '@tm/web-platform';

const confettiCanvas = () => document.querySelector('.tasks-confetti canvas');

describe('Undo after a tick (docs/PRODUCT.md §10.11.4)', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    stubCanvas();
  });
  afterEach(() => {
    jest.restoreAllMocks();
    localStorage.clear();
  });

  it('in "Active": the ticked row leaves, "Task completed" offers Undo, and Undo (U) brings it back in its place with the focus', async () => {
    const user = userEvent.setup();
    for (const title of ['bottom', 'middle', 'top']) await addTodo(title);
    const before = await fetchTodos();
    renderPage(<TaskListPage />, { route: '/?filter=active' });
    await screen.findByText('middle');
    await allRowsEntered();

    await user.click(screen.getByRole('checkbox', { name: 'Mark “middle” as completed' }));
    expect(screen.getByRole('checkbox', { name: 'Mark “bottom” as completed' })).toHaveFocus(); // the next row
    await waitFor(() => expect(shownTitles()).toEqual(['top', 'bottom']));
    await waitFor(() => expect(tickToasts()).toHaveLength(1));
    const offer = tickToasts()[0]!;
    expect(offer).toHaveTextContent('Task completed“middle”Press U to undo.Undo');
    expect(offer.querySelector('kbd')).toHaveAttribute('data-key', 'U'); // shown by the stylesheet, out of the button's name
    expect(within(offer).getByRole('button', { name: 'Undo completing “middle”' })).toHaveAttribute('aria-keyshortcuts', 'u');
    await waitFor(async () => expect((await fetchTodos()).find((todo) => todo.title === 'middle')?.completed).toBe(true));

    await user.keyboard('u');
    await waitFor(() => expect(shownTitles()).toEqual(['top', 'middle', 'bottom']));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “middle” as completed' })).toHaveFocus());
    expect(await screen.findByText('1 task restored')).toBeInTheDocument();
    // Exactly as before the tick: completed, completedAt and updatedAt.
    await waitFor(async () => expect(await fetchTodos()).toEqual(before));
    expect(tickToasts()).toHaveLength(0);
  });

  it('after an untick, Undo completes the task again at its own earlier time', async () => {
    const user = userEvent.setup();
    const { todo } = await addTodo('Water the plants');
    const { todo: done } = await updateTodo(todo._id, { completed: true });
    renderPage(<TaskListPage />);
    await user.click(await screen.findByRole('checkbox', { name: 'Mark “Water the plants” as not completed' }));
    await waitFor(() => expect(tickToasts('Task marked active')).toHaveLength(1));
    await user.click(within(tickToasts('Task marked active')[0]!).getByRole('button', { name: 'Undo marking active “Water the plants”' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “Water the plants” as not completed' })).toBeChecked());
    await waitFor(async () => expect((await fetchTodos())[0]).toEqual(done));
    expect(play).not.toHaveBeenCalled(); // no celebration for the way back
  });

  it('on a touch screen: no keycap and no "Press U", and the key still works', async () => {
    stubMatchMedia([TOUCH_ONLY_QUERY]);
    try {
      const user = userEvent.setup();
      await addTodo('Phone task');
      renderPage(<TaskListPage />);
      fireEvent.click(await screen.findByRole('checkbox', { name: 'Mark “Phone task” as completed' }));
      await waitFor(() => expect(tickToasts()).toHaveLength(1));
      const offer = tickToasts()[0]!;
      expect(offer).toHaveTextContent(/^Task completed“Phone task”Undo$/);
      expect(offer.querySelector('kbd')).toBeNull();
      expect(within(offer).getByRole('button', { name: 'Undo completing “Phone task”' })).not.toHaveAttribute('aria-keyshortcuts');
      await user.keyboard('u');
      await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(false));
    } finally {
      restoreMatchMedia();
    }
  });

  it('says the count of a bulk action once: the server\'s message and Undo, no "3 tasks" again', async () => {
    for (const title of ['one', 'two', 'three']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('three');
    fireEvent.click(screen.getByRole('button', { name: 'Mark all complete' }));
    const undo = await screen.findByRole('button', { name: 'Undo marking complete 3 tasks' });
    const offer = undo.closest('.platform-undo');
    expect(offer).toHaveTextContent(/^3 tasks marked completePress U to undo\.Undo$/);
  });
});

describe('the preferences for sounds and celebrations (docs/PRODUCT.md §10.10)', () => {
  let play: jest.SpyInstance;
  let canvas: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    canvas = stubCanvas();
  });
  afterEach(() => {
    jest.restoreAllMocks();
    localStorage.clear();
  });

  it('with sounds and celebrations off: no sound plays, no audio file is asked for, no confetti', async () => {
    savePreferences({ sounds: false, celebrations: false });
    const audio = jest.spyOn(window, 'Audio');
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(screen.getByRole('textbox', { name: 'New task' }), 'Quiet task{Enter}');
    await screen.findByText('Quiet task');
    await user.click(screen.getByRole('checkbox', { name: 'Mark “Quiet task” as completed' }));
    await waitFor(() => expect(tickToasts()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Delete “Quiet task”' }));
    await screen.findByText('No tasks');
    await sleep(300);
    expect(play).not.toHaveBeenCalled();
    expect(audio).not.toHaveBeenCalled(); // no <audio>: no file fetched
    expect(confettiCanvas()).toBeNull();
    expect(canvas).not.toHaveBeenCalled();
  });

  it('follows a change at once: celebrations back on, the next completion throws confetti with its sound', async () => {
    savePreferences({ celebrations: false });
    await addTodo('first');
    await addTodo('second');
    renderPage(<TaskListPage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Mark “first” as completed' }));
    await waitFor(() => expect(playedSources(play)).toEqual(['/sounds/success.mp3'])); // sounds are still on
    expect(confettiCanvas()).toBeNull();

    savePreferences({ celebrations: true });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Mark “second” as completed' }));
    await waitFor(() => expect(confettiCanvas()).toBeInTheDocument());
  });
});

describe('the on-screen keyboard (docs/PRODUCT.md §10.9)', () => {
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
  });
  afterEach(() => {
    restoreMatchMedia();
    jest.restoreAllMocks();
  });

  it('marks the document while a typing field has the focus on a touch screen, and not after', async () => {
    stubMatchMedia(['(pointer: coarse)']);
    await addTodo('Edit me');
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('Edit me');
    const input = screen.getByRole('textbox', { name: 'New task' });
    expect(document.documentElement.dataset.keyboard).toBeUndefined();
    await user.click(input);
    expect(document.documentElement.dataset.keyboard).toBe('open');
    await user.click(screen.getByText('Edit me')); // the title's editor: the keyboard stays
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Edit “Edit me”' })).toHaveFocus());
    expect(document.documentElement.dataset.keyboard).toBe('open');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.documentElement.dataset.keyboard).toBeUndefined());
  });

  it('does not mark it for a mouse and a keyboard with a window as tall as the screen', async () => {
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.click(screen.getByRole('textbox', { name: 'New task' }));
    expect(document.documentElement.dataset.keyboard).toBeUndefined();
  });
});
