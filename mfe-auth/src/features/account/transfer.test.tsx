import { fetchTodoList, forgetSessionEnd } from '@tm/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { renderAccount } from '../../test/render-account';

/**
 * "Your data" of the Account screen (docs/PRODUCT.md §10.23), inside the standalone app, against the real gateway
 * and services: a chosen file is previewed (nothing written), imported on Import, and a bad one's problems are
 * listed with their lines; what happened is checked on the server.
 */

const section = () => screen.getByRole('region', { name: 'Your data' });
const picker = () => section().querySelector('input[type="file"]') as HTMLInputElement;
const csv = (name: string, text: string) => new File([text], name, { type: 'text/csv' });

describe('the Account page: your data', () => {
  beforeEach(() => {
    toast.remove();
    forgetSessionEnd();
  });

  it('previews a Todoist CSV, imports it on Import with the focus on what it says, and shows the result', async () => {
    await signUpNewUser('Ima Porter');
    const events = userEvent.setup();
    await renderAccount();
    await within(section()).findByRole('button', { name: 'Import…' });

    await events.upload(picker(), csv('Errands.csv', 'TYPE,CONTENT,PRIORITY,INDENT,DATE\ntask,Post office @town,1,1,tomorrow\ntask,Stamps,4,2,\n'));
    const heading = await within(section()).findByRole('heading', { name: 'Errands.csv: 1 task in 1 list' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(within(section()).getByText('New lists: Errands.')).toBeInTheDocument();
    expect(within(section()).getByText(/Kept “tomorrow” as text/)).toBeInTheDocument();
    expect((await fetchTodoList()).todos).toEqual([]);

    await events.click(within(section()).getByRole('button', { name: 'Import 1 task' }));
    const status = await within(section()).findByRole('status');
    expect(status).toHaveTextContent('Imported 1 task into 1 list.');
    const { todos, lists } = await fetchTodoList();
    expect(todos).toEqual([expect.objectContaining({ title: 'Post office', priority: 1, labels: ['town'], note: 'Todoist date: tomorrow', subtasks: [expect.objectContaining({ title: 'Stamps', done: false })] })]);
    expect(lists.map((list) => list.name)).toEqual(['Errands']);
  });

  it('lists every problem of a bad file with its line, imports nothing, and Cancel leaves a preview without importing', async () => {
    await signUpNewUser('Bad File');
    const events = userEvent.setup();
    await renderAccount();
    await within(section()).findByRole('button', { name: 'Import…' });

    await events.upload(picker(), csv('Bad.csv', 'TYPE,CONTENT,PRIORITY\ntask,Fine,1\ntask,,7\n'));
    const alert = await within(section()).findByRole('alert');
    expect(alert).toHaveTextContent('Bad.csv: The file has 2 problems; nothing was imported.');
    const items = within(within(section()).getByRole('list', { name: 'Problems in the file' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([expect.stringMatching(/^Line 3, CONTENT: /), expect.stringMatching(/^Line 3, PRIORITY: /)]);

    await events.upload(picker(), csv('Good.csv', 'TYPE,CONTENT\ntask,Maybe later\n'));
    await within(section()).findByRole('heading', { name: 'Good.csv: 1 task in 1 list' });
    await events.click(within(section()).getByRole('button', { name: 'Cancel' }));
    expect(within(section()).queryByRole('heading', { name: /Good\.csv/ })).not.toBeInTheDocument();
    expect((await fetchTodoList()).todos).toEqual([]);
  });
});
