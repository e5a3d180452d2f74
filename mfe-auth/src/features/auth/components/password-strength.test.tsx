import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '@tm/web-test-support';
import { SignupForm } from './signup-form';

/** How often @tm/password-policy (with its dictionary) was loaded by this file: it must wait for typing. */
const mockPolicyLoads = { count: 0 };
jest.mock('@tm/password-policy', () => {
  mockPolicyLoads.count += 1;
  return jest.requireActual('@tm/password-policy');
});

const hint = () => screen.getByLabelText('Password').closest('.auth-form__field')!.querySelector('.auth-strength')!;

describe('the password strength hint (signup form)', () => {
  it('loads the policy only once someone goes to the field, then rates as they type, without blocking the typing', async () => {
    const events = userEvent.setup();
    renderPage(<SignupForm headingId="signup-title" />, { route: '/signup' });
    const password = screen.getByLabelText('Password');

    expect(hint()).toHaveAttribute('aria-live', 'polite');
    expect(hint()).toBeEmptyDOMElement();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mockPolicyLoads.count).toBe(0);
    // The field gets the focus: the policy starts loading, before the first keystroke.
    await events.click(password);
    await waitFor(() => expect(mockPolicyLoads.count).toBe(1));

    await events.type(password, 'password123');
    expect(password).toHaveValue('password123');
    expect(await screen.findByText('Strength: Very weak')).toBeInTheDocument();
    expect(mockPolicyLoads.count).toBe(1);
    expect(hint()).toHaveTextContent(/too common or easy to guess/);
    expect(hint().querySelectorAll('.auth-strength__step[data-on]')).toHaveLength(1);

    await events.clear(password);
    await events.type(password, 'violet tractor sings at midnight');
    expect(await screen.findByText('Strength: Strong')).toBeInTheDocument();
    expect(hint().querySelectorAll('.auth-strength__step')).toHaveLength(5);
    expect(hint().querySelectorAll('.auth-strength__step[data-on]')).toHaveLength(5);
    expect(mockPolicyLoads.count).toBe(1);

    // Emptied, the hint goes; the rules stay tied to the field.
    await events.clear(password);
    await waitFor(() => expect(hint()).toBeEmptyDOMElement());
    expect(password).toHaveAccessibleDescription('Use at least 8 characters.');
  });

  it('counts the name and email typed in the form against the password', async () => {
    const events = userEvent.setup();
    renderPage(<SignupForm headingId="signup-title" />, { route: '/signup' });
    await events.type(screen.getByLabelText('Full Name'), 'Quintessa Marblewood');
    await events.type(screen.getByLabelText('Email'), 'quintessa.marblewood@example.com');
    await events.type(screen.getByLabelText('Password'), 'QuintessaMarblewood');
    // Rated "Strong" on its own; made of the person's own name, it is next to nothing.
    expect(await screen.findByText('Strength: Very weak')).toBeInTheDocument();
  });
});
