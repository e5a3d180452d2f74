import { addTodo, http } from '@tm/api-client';
import { SAVED_FILTERS_FULL_MESSAGE, type SavedFiltersResponse } from '@tm/contracts';
import { renderPage } from '@tm/web-test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, restoreMatchMedia, stubDialog, stubMatchMedia } from '../../../test/browser-stubs';
import { address, RouterProbe, signedInWithCelebrationStubs } from '../../../test/page-helpers';
import { WIDE_SCREEN_QUERY } from '../constants';
import { describeFilters } from './save-filter-button';

// Saved filters (docs/PRODUCT.md §10.20 "Saved filters") on the page, against the real gateway and services.

function Page() {
  return (
    <>
      <TaskListPage />
      <RouterProbe />
    </>
  );
}

const renderAt = (route: string) => renderPage(<Page />, { route, routes: { '/': <Page />, '/lists/:listId': <Page /> } });
const savedOnServer = async () => (await http.get<SavedFiltersResponse>('/todo/saved-filters')).data.filters.map(({ name, address: kept }) => [name, kept]);
const savedNav = () => screen.findByRole('navigation', { name: 'Saved filters' });

describe('saved filters (docs/PRODUCT.md §10.20)', () => {
  signedInWithCelebrationStubs();
  let restoreDialog: () => void = () => undefined;
  beforeEach(() => {
    stubMatchMedia([WIDE_SCREEN_QUERY]);
    restoreDialog = stubDialog();
  });
  afterEach(() => {
    restoreDialog();
    restoreMatchMedia();
  });

  it('says the filters in words, in the address order', () => {
    expect(describeFilters('?filter=active&priority=1&label=errand&due=today&q=milk')).toBe('Active, Priority 1, @errand, Due today, “milk”');
  });

  it('"Save filter…" keeps the filters under a name; the saved filter shows under the lists, marked while it is the address, and opens it', async () => {
    const user = userEvent.setup();
    await addTodo('Stamps', { labels: ['errand'], priority: 1 });
    await addTodo('Milk');
    renderAt('/?label=errand&priority=1&task=ignored');
    await screen.findByText('Stamps');
    expect(screen.queryByRole('navigation', { name: 'Saved filters' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save filter…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save filter' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Priority 1, @errand');
    expect(name).toHaveAccessibleDescription('Keeps: Priority 1, @errand');
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Enter a name for the filter.');
    await user.type(name, 'Urgent errands{Enter}');
    expect(await screen.findByText('Filter saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save filter' })).not.toBeInTheDocument());
    expect(await savedOnServer()).toEqual([['Urgent errands', '/?priority=1&label=errand']]);
    const saved = within(await savedNav()).getByRole('link', { name: 'Urgent errands' });
    expect(saved).toHaveAttribute('aria-current', 'page');

    await user.click(within(screen.getByRole('navigation', { name: 'Lists' })).getByRole('link', { name: /All tasks/ }));
    await screen.findByText('Milk');
    expect(within(await savedNav()).getByRole('link', { name: 'Urgent errands' })).not.toHaveAttribute('aria-current');
    await user.click(within(await savedNav()).getByRole('link', { name: 'Urgent errands' }));
    expect(address()).toBe('/?priority=1&label=errand');
    await waitFor(() => expect(screen.queryByText('Milk')).not.toBeInTheDocument());
    expect(screen.getByText('Stamps')).toBeInTheDocument();
  });

  it('a name already saved (case aside) is said to be replaced, and gets the new filters', async () => {
    const user = userEvent.setup();
    await http.put('/todo/saved-filters', { name: 'Errands', address: '/?label=errand' });
    renderAt('/?filter=active&label=errand');
    await user.click(await screen.findByRole('button', { name: 'Save filter…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save filter' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'errands');
    expect(name).toHaveAccessibleDescription('Keeps: Active, @errand · replaces your filter “Errands”');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Filter updated')).toBeInTheDocument();
    expect(await savedOnServer()).toEqual([['errands', '/?filter=active&label=errand']]);
  });

  it('deleting a saved filter offers Undo, which saves it again', async () => {
    const user = userEvent.setup();
    await http.put('/todo/saved-filters', { name: 'Errands', address: '/?label=errand' });
    renderAt('/');
    await user.click(within(await savedNav()).getByRole('button', { name: 'Delete saved filter “Errands”' }));
    expect(await screen.findByText('Filter deleted')).toBeInTheDocument();
    await waitFor(async () => expect(await savedOnServer()).toEqual([]));
    expect(screen.queryByRole('navigation', { name: 'Saved filters' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Undo deleting “Errands”/ }));
    await waitFor(async () => expect(await savedOnServer()).toEqual([['Errands', '/?label=errand']]));
    expect(within(await savedNav()).getByRole('link', { name: 'Errands' })).toBeInTheDocument();
  });

  it('offline or full, saving says why at the field, and the dialog stays', async () => {
    const user = userEvent.setup();
    await Promise.all(Array.from({ length: 50 }, (_, index) => http.put('/todo/saved-filters', { name: `F${index}`, address: `/?label=l${index}` })));
    renderAt('/?due=today');
    await user.click(await screen.findByRole('button', { name: 'Save filter…' }));
    let dialog = await screen.findByRole('dialog', { name: 'Save filter' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(SAVED_FILTERS_FULL_MESSAGE);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const back = goOffline();
    try {
      await user.click(await screen.findByRole('button', { name: 'Save filter…' }));
      dialog = await screen.findByRole('dialog', { name: 'Save filter' });
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent("You're offline.");
    } finally {
      back();
    }
  });
});
