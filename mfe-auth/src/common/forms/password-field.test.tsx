import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PasswordField } from './password-field';

/** A form with one password field, as the screens use it. */
function renderField(onSubmit = jest.fn((event: { preventDefault: () => void }) => event.preventDefault())) {
  render(
    <form onSubmit={onSubmit}>
      <PasswordField label="Password" name="password" autoComplete="current-password" />
      <button type="submit">Send</button>
    </form>,
  );
  return { input: screen.getByLabelText<HTMLInputElement>('Password'), onSubmit };
}

describe('PasswordField: show and hide the password (docs/PRODUCT.md §10.10)', () => {
  it('starts hidden; the button says what it does and what changed, and toggles the type', async () => {
    const events = userEvent.setup();
    const { input } = renderField();
    expect(input).toHaveAttribute('type', 'password');
    const show = screen.getByRole('button', { name: 'Show password' });
    expect(show).toHaveTextContent('Show');
    expect(show).toHaveAttribute('aria-controls', input.id);
    expect(show).toHaveAttribute('type', 'button');

    await events.click(show);
    expect(input).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveTextContent('Hide');
    expect(screen.getByText('Your password is shown.')).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
    expect(screen.getByText('Your password is hidden.')).toBeInTheDocument();
  });

  it('pressed while typing, leaves the focus and the caret in the field', async () => {
    const events = userEvent.setup();
    const { input } = renderField();
    await events.type(input, 'correct horse');
    input.setSelectionRange(3, 3);
    await events.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveFocus();
    expect(input).toHaveAttribute('type', 'text');
    expect([input.selectionStart, input.selectionEnd]).toEqual([3, 3]);
    await events.keyboard('X');
    expect(input).toHaveValue('corXrect horse');
  });

  it('works from the keyboard like any button, the focus staying on it', async () => {
    const events = userEvent.setup();
    const { input } = renderField();
    await events.click(input);
    await events.tab();
    const button = screen.getByRole('button', { name: 'Show password' });
    expect(button).toHaveFocus();
    await events.keyboard(' ');
    expect(input).toHaveAttribute('type', 'text');
    await events.keyboard('{Enter}');
    expect(input).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Show password' })).toHaveFocus();
  });

  it('hides the password again when the form is sent, for the browser\'s password manager', async () => {
    const events = userEvent.setup();
    const { input, onSubmit } = renderField();
    await events.type(input, 'correct horse');
    await events.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    await events.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveValue('correct horse');
  });

  it('shown, still asks for no spelling checks or capitals', async () => {
    const events = userEvent.setup();
    const { input } = renderField();
    await events.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('spellcheck', 'false');
    expect(input).toHaveAttribute('autocapitalize', 'off');
    expect(input).toHaveAttribute('autocomplete', 'current-password');
  });
});
