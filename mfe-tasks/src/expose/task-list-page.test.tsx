import { fetchTodos, login, logout } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { playedSources, stubAudioPlay } from '../test/browser-stubs';
import TaskListPage from './task-list-page';

const input = () => screen.getByRole('textbox', { name: 'New task' });

describe('the task list page', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
  });
  afterEach(() => jest.restoreAllMocks());

  it('greets the user by full name and congratulates on an empty list', async () => {
    renderPage(<TaskListPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your tasks…');
    expect(await screen.findByText('No tasks')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Task Manager' })).toBeInTheDocument();
    expect(await screen.findByText('Hello, Ada Lovelace!')).toBeInTheDocument();
    expect(screen.getByText('All tasks conquered!')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Task Manager' })).toBeInTheDocument();
    expect(input()).toHaveAttribute('placeholder', 'What would you like to accomplish?');
    expect(document.querySelector('img')).toHaveAttribute('src', '/svgs/to-do-list-animate.svg');
  });

  it('adds a task: clears the input, plays the added sound, toasts and shows the row', async () => {
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Write the first program');
    await user.click(screen.getByRole('button', { name: 'Add Task' }));

    expect(await screen.findByText('Task added successfully')).toBeInTheDocument();
    expect(input()).toHaveValue('');
    expect(playedSources(play)).toEqual(['/sounds/added.mp3']);
    const row = await screen.findByRole('listitem');
    expect(within(row).getByText('Write the first program')).toBeInTheDocument();
    expect(screen.getByText('You have 1 task left. Keep going!')).toBeInTheDocument();
    expect(screen.queryByText('No tasks')).not.toBeInTheDocument();
    expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Write the first program']);
  });

  it('sends an empty title without client-side validation and reports the refusal', async () => {
    const user = userEvent.setup();
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.click(screen.getByRole('button', { name: 'Add Task' }));

    expect(await screen.findByText('Failed to add task. Please try again.')).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('Adding the task failed', expect.objectContaining({ response: expect.objectContaining({ status: 400 }) }));
    expect(play).not.toHaveBeenCalled();
    expect(screen.getByText('No tasks')).toBeInTheDocument();
  });

  it('shows an error with "Try again" when the list cannot be fetched, and recovers', async () => {
    const user = userEvent.setup();
    const account = await signUpNewUser('Ada Lovelace');
    await logout();
    renderPage(<TaskListPage />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not load your tasks.');

    await login({ email: account.email, password: account.password });
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No tasks')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('has no serious or critical accessibility violations', async () => {
    const user = userEvent.setup();
    const { container } = renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Check the contrast');
    await user.click(screen.getByRole('button', { name: 'Add Task' }));
    await screen.findByRole('listitem');

    const { violations } = await axe.run(container);
    const severe = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(severe.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    // Every control can be reached with the keyboard and has a name.
    for (const control of [...container.querySelectorAll('button, input')]) {
      expect(control).not.toHaveAttribute('tabindex', '-1');
      expect(control).toHaveAccessibleName();
    }
  });
});
