import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef } from 'react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { PageFocus, startPageLoad } from './page-focus';

// Each test is a page load of its own: its first screen is the first one shown.
beforeEach(() => startPageLoad());

function Address() {
  const { pathname, search } = useLocation();
  return <output data-testid="address">{pathname + search}</output>;
}

/** A screen as the remotes make them: a heading, a field, and the shell's PageFocus after it. */
function renderScreens(start: string) {
  function TasksScreen() {
    return (
      <>
        <h1>Task Manager</h1>
        <label htmlFor="new">New task</label>
        <input id="new" />
        <PageFocus />
      </>
    );
  }
  function AccountScreen() {
    return (
      <>
        <h1>Account</h1>
        <PageFocus />
      </>
    );
  }
  function NoHeading() {
    return (
      <>
        <p>Nothing to head</p>
        <PageFocus />
      </>
    );
  }
  function FocusesItself() {
    const field = useRef<HTMLInputElement>(null);
    useEffect(() => field.current?.focus(), []);
    return (
      <>
        <h1>Sign in</h1>
        <label htmlFor="email">Email</label>
        <input id="email" ref={field} />
        <PageFocus />
      </>
    );
  }
  return render(
    <MemoryRouter initialEntries={[start]}>
      <nav>
        <Link to="/">Tasks</Link>
        <Link to="/account">Account settings</Link>
        <Link to="/plain">Plain</Link>
        <Link to="/login">Sign in</Link>
        <Link to="/?filter=active">Active</Link>
      </nav>
      <div role="dialog" aria-label="Account menu">
        <Link to="/plain">Plain, from the menu</Link>
      </div>
      <main id="main">
        <Routes>
          <Route path="/" element={<TasksScreen />} />
          <Route path="/account" element={<AccountScreen />} />
          <Route path="/plain" element={<NoHeading />} />
          <Route path="/login" element={<FocusesItself />} />
        </Routes>
      </main>
      <Address />
    </MemoryRouter>,
  );
}

describe('the focus after a navigation (PRODUCT §10.9)', () => {
  it('leaves the first screen of the page load alone, then puts the focus on each new screen’s heading', async () => {
    const events = userEvent.setup();
    renderScreens('/');
    expect(document.body).toHaveFocus();

    await events.click(screen.getByRole('link', { name: 'Account settings' }));
    const heading = screen.getByRole('heading', { name: 'Account', level: 1 });
    await waitFor(() => expect(heading).toHaveFocus());
    // Focusable by script only: the heading is not a Tab stop.
    expect(heading).toHaveAttribute('tabindex', '-1');

    await events.click(screen.getByRole('link', { name: 'Tasks' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Task Manager', level: 1 })).toHaveFocus());
  });

  it('moves nothing for a change of query on the same screen (a filter)', async () => {
    const events = userEvent.setup();
    renderScreens('/');
    const filter = screen.getByRole('link', { name: 'Active' });
    await events.click(filter);
    expect(screen.getByTestId('address')).toHaveTextContent('/?filter=active');
    expect(filter).toHaveFocus();
  });

  it('puts the focus on <main> when the new screen has no heading', async () => {
    const events = userEvent.setup();
    renderScreens('/');
    await events.click(screen.getByRole('link', { name: 'Plain' }));
    const main = screen.getByRole('main');
    await waitFor(() => expect(main).toHaveFocus());
    expect(main).toHaveAttribute('tabindex', '-1');
  });

  it('leaves the focus where a screen put it itself (the sign-in screen’s Email)', async () => {
    const events = userEvent.setup();
    renderScreens('/account');
    await events.click(screen.getByRole('link', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus());
  });

  it('leaves the focus in a menu the person has open as the new screen arrives', async () => {
    const events = userEvent.setup();
    renderScreens('/');
    const inMenu = screen.getByRole('link', { name: 'Plain, from the menu' });
    await events.click(inMenu);
    expect(screen.getByTestId('address')).toHaveTextContent('/plain');
    // Let the lazily loaded rule run, then check it left the focus where it was.
    await import('./focus-page');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(inMenu).toHaveFocus();
    expect(screen.getByRole('main')).not.toHaveAttribute('tabindex');
  });

  it('puts the focus in the new-task field for ?new=1 (the installed app’s shortcut), then drops it from the address', async () => {
    renderScreens('/?new=1&filter=active');
    await waitFor(() => expect(screen.getByLabelText('New task')).toHaveFocus());
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/\?filter=active$/));
  });
});
