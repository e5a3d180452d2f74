import { addTodo, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { stubAnimations, stubAudioPlay, type PlayedAnimation } from '../../../test/browser-stubs';
import { entranceDelay, MOTION } from '../constants';

// The rows animate with Web Animations (the browser plays them, useRowMotion): jsdom has none, so the stub
// records what each row asked for and plays it as a timer.
const sleep = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
const titleOf = (played: PlayedAnimation) => played.element.querySelector('.tasks-item__title')?.textContent;
/** The entrances asked for, by title, with their delay in ms. */
const entrances = (played: PlayedAnimation[]): Record<string, number | undefined> =>
  Object.fromEntries(played.filter((p) => p.keyframes[0]?.opacity === 0).map((p) => [titleOf(p) ?? '', p.options.delay]));

describe('the row animations (docs/PRODUCT.md §2, §9)', () => {
  let animations: ReturnType<typeof stubAnimations>;
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
    animations = stubAnimations();
  });
  afterEach(() => {
    animations.restore();
    jest.restoreAllMocks();
  });

  it('staggers the entrance by 0.3 s per row on the first load: a fade and a 12 px rise, hidden until its turn', async () => {
    for (const title of ['third', 'second', 'first']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('third');

    expect(entrances(animations.played)).toEqual({ first: 0, second: 300, third: 600 });
    const [first] = animations.played;
    expect(first?.keyframes).toEqual([{ opacity: 0, transform: 'translateY(12px)' }, { opacity: 1, transform: 'none' }]);
    expect(first?.options).toMatchObject({ duration: MOTION.enterSeconds * 1000, fill: 'backwards' });
    // Every row can be used while it waits for its turn: none is inert.
    expect(screen.getAllByRole('listitem').map((row) => row.hasAttribute('inert'))).toEqual([false, false, false]);
  });

  it('brings a waiting row in at once when it gets the focus or the pointer, and takes its click', async () => {
    const user = userEvent.setup();
    for (const title of ['third', 'second', 'first']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('third');
    const third = animations.played.find((p) => titleOf(p) === 'third');
    expect(third?.finishedEarly).toBe(false);
    // The third row waits 0.6 s for its turn; Tab reaches it at once, and it comes in.
    screen.getByRole('checkbox', { name: 'Mark “third” as completed' }).focus();
    expect(third?.finishedEarly).toBe(true);
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
    const delays = entrances(animations.played);
    expect(titles.map((title) => delays[title])).toEqual([0, 300, 600, 900, 1200, 1500, 1800, 2100, 2100, 2100]);
  });

  it('lets a row added later enter without a stagger delay; a row scrolled into view has no entrance', async () => {
    const user = userEvent.setup();
    for (const title of ['one', 'two', 'three']) {
      const { todo } = await addTodo(title);
      await updateTodo(todo._id, { isPinned: true }); // pinned rows stay above, so the new row is 4th
    }
    renderPage(<TaskListPage />);
    await screen.findByText('one');

    await user.type(screen.getByRole('textbox', { name: 'New task' }), 'later');
    await user.click(screen.getByRole('button', { name: 'Add Task' }));
    await screen.findByText('later');
    expect(screen.getAllByRole('listitem').map((row) => row.querySelector('.tasks-item__title')?.textContent)).toEqual(['three', 'two', 'one', 'later']);
    expect(screen.getAllByRole('listitem')[3]).not.toHaveAttribute('inert'); // no delay: usable from the start
    expect(entrances(animations.played).later).toBe(0);
  });

  it('animates a deleted row out over 0.5 s (fade and 32 px to the left), unreachable meanwhile', async () => {
    const user = userEvent.setup();
    await addTodo('Going away');
    renderPage(<TaskListPage />);
    await screen.findByText('Going away');
    const row = screen.getByRole('listitem');

    await user.click(within(row).getByRole('button', { name: 'Delete “Going away”' }));
    await waitFor(() => expect(row).toHaveAttribute('inert'));
    const exit = animations.played.at(-1);
    expect(exit?.element).toBe(row);
    expect(exit?.keyframes).toEqual([{ opacity: 1, transform: 'none' }, { opacity: 0, transform: 'translateX(-32px)' }]);
    expect(exit?.options.duration).toBe(MOTION.exitSeconds * 1000);
    await sleep(200);
    expect(row).toBeInTheDocument();
    await waitFor(() => expect(row).not.toBeInTheDocument(), { timeout: 1000 });
  });
});
