import { fetchCurrentUser, forgetSessionEnd, updateProfile } from '@tm/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentUserQuery, signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { renderAccount } from '../../test/render-account';
import { pretendBrowserZone } from '../../test/browser-zone';

/**
 * "Time zone" of the Account screen (docs/PRODUCT.md §10.10, §10.14), inside the standalone app, against the real
 * gateway and services: what the page shows and saves is checked on the server.
 */

const UNKNOWN_ZONE_MESSAGE = 'Time zone must be a known IANA time zone name, such as Europe/Paris';
const userKey = currentUserQuery().queryKey;

const section = () => screen.getByRole('region', { name: 'Time zone' });
const zoneField = () => within(section()).getByRole('combobox', { name: 'Time zone' });
const selected = () => (zoneField() as HTMLSelectElement).value;

describe('the Account page: time zone', () => {
  let restoreZone: () => void = () => undefined;
  beforeEach(() => {
    toast.remove();
    forgetSessionEnd();
  });
  afterEach(() => {
    restoreZone();
    forgetSessionEnd();
  });

  it("shows an account without a zone the browser's, noted, writes nothing until saved, then keeps the zone chosen", async () => {
    restoreZone = pretendBrowserZone('Pacific/Auckland');
    const account = await signUpNewUser('Zone Chooser');
    expect(account).not.toHaveProperty('timeZone');
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();

    expect(selected()).toBe('Pacific/Auckland');
    expect(within(zoneField()).getByRole('option', { name: 'Pacific/Auckland' })).toHaveProperty('selected', true);
    expect(zoneField()).toHaveAccessibleDescription('From this browser');
    // Every zone this browser knows is offered, each once.
    const options = within(zoneField()).getAllByRole('option').map((option) => (option as HTMLOptionElement).value);
    expect(options).toEqual(expect.arrayContaining(Intl.supportedValuesOf('timeZone')));
    expect(new Set(options).size).toBe(options.length);
    // Showing the browser's zone wrote nothing.
    expect(await fetchCurrentUser()).not.toHaveProperty('timeZone');

    await events.selectOptions(zoneField(), 'America/New_York');
    expect(within(zoneField()).getByRole('option', { name: 'America/New York' })).toHaveProperty('selected', true);
    expect(zoneField()).not.toHaveAccessibleDescription('From this browser');
    await events.click(within(section()).getByRole('button', { name: 'Save time zone' }));

    expect(await screen.findByText('Your details were saved')).toBeInTheDocument();
    expect(queryClient.getQueryData(userKey)).toEqual({ _id: account._id, fullName: 'Zone Chooser', email: account.email, timeZone: 'America/New_York' });
    expect(await fetchCurrentUser()).toMatchObject({ timeZone: 'America/New_York' });
    expect(selected()).toBe('America/New_York');
    expect(zoneField()).not.toHaveAccessibleDescription('From this browser');
  });

  it("selects the account's zone, not the browser's, with no note, even one the browser does not list", async () => {
    restoreZone = pretendBrowserZone('Pacific/Auckland');
    const account = await signUpNewUser('Zone Keeper');
    // An alias the server accepts and keeps as given.
    await updateProfile({ timeZone: 'US/Eastern' });
    await renderAccount();
    expect(selected()).toBe('US/Eastern');
    expect(zoneField()).not.toHaveAccessibleDescription('From this browser');
    expect(within(zoneField()).getAllByRole('option', { name: 'US/Eastern' })).toHaveLength(1);
    expect(await fetchCurrentUser()).toMatchObject({ _id: account._id, timeZone: 'US/Eastern' });
  });

  it('says at the field when the server does not know the zone, keeps the focus there, and changes nothing', async () => {
    // A browser whose zone the server's time zone data does not have.
    restoreZone = pretendBrowserZone('Mars/Olympus_Mons');
    await signUpNewUser('Zone Refused');
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();
    expect(selected()).toBe('Mars/Olympus_Mons');

    await events.click(within(section()).getByRole('button', { name: 'Save time zone' }));

    await waitFor(() => expect(zoneField()).toHaveAttribute('aria-invalid', 'true'));
    expect(zoneField()).toHaveAccessibleDescription(expect.stringMatching(new RegExp(`^${UNKNOWN_ZONE_MESSAGE}`)));
    expect(zoneField()).toHaveFocus();
    expect(within(section()).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Your details were saved')).not.toBeInTheDocument();
    expect(queryClient.getQueryData(userKey)).not.toHaveProperty('timeZone');
    expect(await fetchCurrentUser()).not.toHaveProperty('timeZone');

    // Choosing another zone clears the message; saving it works.
    await events.selectOptions(zoneField(), 'Europe/Paris');
    expect(zoneField()).not.toHaveAttribute('aria-invalid');
    await events.click(within(section()).getByRole('button', { name: 'Save time zone' }));
    expect(await screen.findByText('Your details were saved')).toBeInTheDocument();
    expect(await fetchCurrentUser()).toMatchObject({ timeZone: 'Europe/Paris' });
  });
});
