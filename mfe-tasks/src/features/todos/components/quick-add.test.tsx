import { fetchTodos } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { stubAudioPlay } from '../../../test/browser-stubs';
import TaskListPage from '../../../expose/task-list-page';

// Quick add in plain words (docs/PRODUCT.md §10.14), against the real services.

const input = () => screen.getByRole('textbox', { name: 'New task' });
const pad = (value: number) => String(value).padStart(2, '0');
const tomorrow = () => {
  const day = new Date();
  day.setDate(day.getDate() + 1);
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
};

describe('quick add in plain words', () => {
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Quick Adder');
    stubAudioPlay();
  });
  afterEach(() => jest.restoreAllMocks());

  it('shows what the words say before adding, adds the date and leaves the rest as the title', async () => {
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Pay rent tomorrow 9am');
    // In the browser's locale (en-US here: "09:00 AM").
    const preview = await screen.findByText(/^Due Tomorrow 09:00/);
    expect(preview.parentElement).toHaveTextContent(/^Due Tomorrow 09:00( AM)? · “Pay rent”$/);
    expect(input()).toHaveAccessibleDescription(/^Due Tomorrow 09:00( AM)? · “Pay rent”$/);
    await user.keyboard('{Enter}');
    await screen.findByText('Pay rent');
    expect(input()).toHaveValue('');
    await waitFor(async () => expect((await fetchTodos()).map(({ title, due }) => ({ title, due }))).toEqual([{ title: 'Pay rent', due: `${tomorrow()}T09:00` }]));
    expect(screen.queryByRole('button', { name: 'Keep words as typed' })).not.toBeInTheDocument();
  });

  it('keeps the words as typed with one action, and no date', async () => {
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Read the Friday report tomorrow');
    const keep = await screen.findByRole('button', { name: 'Keep words as typed' });
    expect(keep).toHaveAttribute('aria-pressed', 'false');
    await user.click(keep);
    expect(keep).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Adding as typed, with no due date')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Task' }));
    await screen.findByText('Read the Friday report tomorrow');
    await waitFor(async () => expect(await fetchTodos()).toEqual([expect.objectContaining({ title: 'Read the Friday report tomorrow' })]));
    expect((await fetchTodos())[0]).not.toHaveProperty('due');
    // The next task reads its words again.
    await user.type(input(), 'Call mum on Sunday');
    expect(await screen.findByRole('button', { name: 'Keep words as typed' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('adds words that only look like a date as typed, with no preview', async () => {
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Order sun screen');
    await user.keyboard('{Enter}');
    await screen.findByText('Order sun screen');
    expect(screen.queryByRole('button', { name: 'Keep words as typed' })).not.toBeInTheDocument();
    await waitFor(async () => expect(await fetchTodos()).toEqual([expect.not.objectContaining({ due: expect.anything() as unknown })]));
  });
});
