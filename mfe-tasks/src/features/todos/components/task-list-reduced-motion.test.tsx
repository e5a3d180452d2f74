import { addTodo, fetchTodos } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import TaskListPage from '../../../expose/task-list-page';
import { SUCCESS_CUE_MS } from '../constants';
import { restoreMatchMedia, stubAnimations, stubAudioPlay, stubCanvas, stubMatchMedia } from '../../../test/browser-stubs';

// A file of its own: framer-motion reads the preference once per page load.
describe('the rows when the user asks for reduced motion', () => {
  let animations: ReturnType<typeof stubAnimations>;
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
    animations = stubAnimations();
    jest.spyOn(console, 'warn').mockImplementation(() => undefined); // framer-motion's dev notice
    stubMatchMedia(['(prefers-reduced-motion)', '(prefers-reduced-motion: reduce)']);
  });
  afterEach(() => {
    animations.restore();
    jest.restoreAllMocks();
    restoreMatchMedia();
  });

  it('neither moves nor staggers them: they only fade in, all at once', async () => {
    for (const title of ['third', 'second', 'first']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('third');

    expect(animations.played).toHaveLength(3);
    for (const { keyframes, options } of animations.played) {
      expect(keyframes).toEqual([{ opacity: 0 }, { opacity: 1, transform: 'none' }]);
      expect(options.delay).toBe(0);
    }
  });

  it('replaces the confetti with a still success cue, shown for 1.5 s once the server confirmed the tick', async () => {
    const canvas = stubCanvas();
    await addTodo('Calm task');
    renderPage(<TaskListPage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Mark “Calm task” as completed' }));
    expect(screen.queryByTestId('success-cue')).not.toBeInTheDocument(); // not before the server's answer

    const cue = await screen.findByTestId('success-cue');
    const shownAt = performance.now();
    let hiddenAt = 0;
    const watch = new MutationObserver(() => {
      if (!hiddenAt && !cue.isConnected) hiddenAt = performance.now();
    });
    watch.observe(document.body, { childList: true, subtree: true });
    expect(cue).toHaveAttribute('aria-hidden', 'true');
    expect(cue).toHaveStyle({ position: 'fixed', pointerEvents: 'none' });
    expect(document.querySelector('canvas')).toBeNull();
    expect(canvas).not.toHaveBeenCalled();
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(true));

    // Measured rather than sampled: a busy machine may only make the cue leave later, never earlier.
    await waitFor(() => expect(hiddenAt).toBeGreaterThan(0), { timeout: SUCCESS_CUE_MS * 3 });
    watch.disconnect();
    expect(hiddenAt - shownAt).toBeGreaterThanOrEqual(SUCCESS_CUE_MS - 100);
    expect(document.querySelector('canvas')).toBeNull();
  });
});
