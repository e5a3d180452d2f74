import { get } from 'node:http';
import { addTodo, fetchCalendarFeed, forgetSessionEnd } from '@tm/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { renderAccount } from '../../test/render-account';
import { CALENDAR_FEED_ADDRESS_TEXT, CALENDAR_FEED_HIDDEN_TEXT, NEW_ADDRESS_QUESTION, TURN_OFF_QUESTION } from './components/calendar-feed-controls';

/**
 * "Calendar feed" of the Account screen (docs/PRODUCT.md §10.18), inside the standalone app, against the real
 * gateway and services: what the section shows is checked on the server, and the address it shows is fetched
 * the way a calendar app fetches it, with no cookie.
 */

const section = () => screen.getByRole('region', { name: 'Calendar feed' });
const addressField = () => within(section()).getByRole('textbox', { name: 'Calendar address' });

/** The feed at `url`, fetched over plain HTTP with no cookie (jsdom's cookie jar stays out of it). */
function fetchWithoutCookies(url: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], body }));
    }).on('error', reject);
  });
}

describe('the Account page: calendar feed', () => {
  beforeEach(() => {
    toast.remove();
    forgetSessionEnd();
  });

  it('turns the feed on, shows its address once with what it is for, copies it, and the address serves the dated tasks', async () => {
    await signUpNewUser('Feed Subscriber');
    const { todo } = await addTodo('Renew passport', '2027-05-03');
    const events = userEvent.setup();
    await renderAccount();

    const turnOn = await within(section()).findByRole('button', { name: 'Turn on calendar feed' });
    expect(within(section()).queryByRole('textbox')).not.toBeInTheDocument();
    await events.click(turnOn);

    expect(await screen.findByText('Calendar feed turned on')).toBeInTheDocument();
    const url = (addressField() as HTMLInputElement).value;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(addressField()).toHaveAttribute('readonly');
    expect(addressField()).toHaveAccessibleDescription(CALENDAR_FEED_ADDRESS_TEXT);
    await waitFor(() => expect(addressField()).toHaveFocus());
    expect((await fetchCalendarFeed()).feed).toEqual({ on: true, since: expect.any(String) });

    await events.click(within(section()).getByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Address copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(url);

    const feed = await fetchWithoutCookies(url);
    expect([feed.status, feed.type]).toEqual([200, 'text/calendar; charset=utf-8']);
    expect(feed.body).toContain(`UID:${todo._id}@task-manager`);
    expect(feed.body).toContain('SUMMARY:Renew passport');
  });

  it('after a reload says the feed is on without its address; a new address replaces it, Turn off ends it, each confirmed', async () => {
    await signUpNewUser('Feed Rotator');
    await addTodo('Water plants', '2027-05-04T08:00');
    const events = userEvent.setup();
    const first = await renderAccount();
    await events.click(await within(section()).findByRole('button', { name: 'Turn on calendar feed' }));
    const oldUrl = (await within(section()).findByRole<HTMLInputElement>('textbox', { name: 'Calendar address' })).value;
    first.unmount();

    // The page again: only a digest is kept, so the address is not shown, only that the feed is on.
    await renderAccount();
    expect(await within(section()).findByText(new RegExp(`^${CALENDAR_FEED_HIDDEN_TEXT.replace(/[.()]/g, '\\$&')}`))).toBeInTheDocument();
    expect(within(section()).queryByRole('textbox')).not.toBeInTheDocument();

    // A new address, confirmed: Cancel first changes nothing.
    const newAddress = within(section()).getByRole('button', { name: 'Get a new address' });
    await events.click(newAddress);
    const dialog = screen.getByRole('alertdialog', { name: NEW_ADDRESS_QUESTION });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(newAddress).toHaveFocus();
    expect((await fetchWithoutCookies(oldUrl)).status).toBe(200);

    await events.click(newAddress);
    await events.click(within(screen.getByRole('alertdialog', { name: NEW_ADDRESS_QUESTION })).getByRole('button', { name: 'Get a new address' }));
    expect(await screen.findByText('Your calendar feed has a new address. The old one no longer works.')).toBeInTheDocument();
    const newUrl = (addressField() as HTMLInputElement).value;
    expect(newUrl).not.toBe(oldUrl);
    await waitFor(() => expect(addressField()).toHaveFocus());
    expect((await fetchWithoutCookies(oldUrl)).status).toBe(404);
    expect((await fetchWithoutCookies(newUrl)).status).toBe(200);

    await events.click(within(section()).getByRole('button', { name: 'Turn off' }));
    await events.click(within(screen.getByRole('alertdialog', { name: TURN_OFF_QUESTION })).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Calendar feed turned off. Its address no longer works.')).toBeInTheDocument();
    const turnOn = within(section()).getByRole('button', { name: 'Turn on calendar feed' });
    await waitFor(() => expect(turnOn).toHaveFocus());
    expect(within(section()).queryByRole('textbox')).not.toBeInTheDocument();
    expect((await fetchWithoutCookies(newUrl)).status).toBe(404);
    expect((await fetchCalendarFeed()).feed).toEqual({ on: false });
  });
});
