import { addTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, screen } from '@testing-library/react';
import TaskListPage from '../../../expose/task-list-page';
import { restoreMatchMedia, stubAudioPlay, stubMatchMedia } from '../../../test/browser-stubs';

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
});
