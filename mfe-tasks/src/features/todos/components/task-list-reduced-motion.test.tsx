import { addTodo, fetchTodos } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import TaskListPage from '../../../expose/task-list-page';
import { restoreMatchMedia, stubAudioPlay, stubCanvas, stubMatchMedia } from '../../../test/browser-stubs';

// A file of its own: framer-motion reads the preference once per page load.
describe('the rows when the user asks for reduced motion', () => {
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
    jest.spyOn(console, 'warn').mockImplementation(() => undefined); // framer-motion's dev notice
    stubMatchMedia(['(prefers-reduced-motion)', '(prefers-reduced-motion: reduce)']);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    restoreMatchMedia();
  });

  it('neither moves nor staggers them', async () => {
    for (const title of ['third', 'second', 'first']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('third');

    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    const rows = screen.getAllByRole('listitem');
    expect(rows.map((row) => row.style.transform)).toEqual(['none', 'none', 'none']);
    for (const row of rows) expect(Number(row.style.opacity)).toBeGreaterThan(0);
  });

  it('replaces the confetti with a still success cue, shown for 1.5 s once the server confirmed the tick', async () => {
    const canvas = stubCanvas();
    await addTodo('Calm task');
    renderPage(<TaskListPage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Mark “Calm task” as completed' }));
    expect(screen.queryByTestId('success-cue')).not.toBeInTheDocument(); // not before the server's answer

    const cue = await screen.findByTestId('success-cue');
    expect(cue).toHaveAttribute('aria-hidden', 'true');
    expect(cue).toHaveStyle({ position: 'fixed', pointerEvents: 'none' });
    expect(document.querySelector('canvas')).toBeNull();
    expect(canvas).not.toHaveBeenCalled();
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(true));

    await act(() => new Promise((resolve) => setTimeout(resolve, 1000)));
    expect(screen.getByTestId('success-cue')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('success-cue')).not.toBeInTheDocument(), { timeout: 1000 });
    expect(document.querySelector('canvas')).toBeNull();
  });
});
