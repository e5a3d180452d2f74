import { addTodo, fetchTodos } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { playedSources, restoreMatchMedia, stubAudioPlay, stubMatchMedia } from '../../../test/browser-stubs';
import { SMALL_SCREEN_QUERY } from '../constants';

describe('the row actions on a small screen', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    stubMatchMedia([SMALL_SCREEN_QUERY]);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    restoreMatchMedia();
  });

  it('puts pin and delete into an overflow menu', async () => {
    const user = userEvent.setup();
    await addTodo('Pack the bags');
    renderPage(<TaskListPage />);
    const row = (await screen.findByText('Pack the bags')).closest('li') as HTMLElement;
    expect(within(row).queryByRole('button', { name: 'Pin task' })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Delete task' })).not.toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'More actions for "Pack the bags"' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Pin', 'Delete']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Pin' }));

    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(row).toHaveClass('tasks-item--pinned');
    await waitFor(async () => expect((await fetchTodos())[0]?.isPinned).toBe(true));
    await user.click(within(row).getByRole('button', { name: 'More actions for "Pack the bags"' }));
    expect(within(await screen.findByRole('menu')).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Unpin', 'Delete']);
  });

  it('works with the keyboard: open the menu, arrow to Delete, press Enter', async () => {
    const user = userEvent.setup();
    await addTodo('Cancel the trip');
    renderPage(<TaskListPage />);
    const trigger = await screen.findByRole('button', { name: 'More actions for "Cancel the trip"' });
    const row = trigger.closest('li') as HTMLElement;

    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Pin' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(playedSources(play)).toEqual(['/sounds/deleted.mp3']);
    await waitForElementToBeRemoved(row);
    expect(screen.getByRole('heading', { name: 'Your tasks' })).toHaveFocus();
    expect(await fetchTodos()).toEqual([]);
  });
});
