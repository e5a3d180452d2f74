import type { Response } from 'playwright-core';
import { useBrowser } from './browser.js';
import { day, describeInBrowser, newTaskInput, row, serverTodos, snapshot } from './app.js';
import { openDevice, signUpOn, until } from './phone.js';

// Quick add in plain words (docs/PRODUCT.md §10.14) on a phone, by touch: what the words say shows before
// adding, and the parser arrives only once the person starts typing.

const browser = useBrowser();

describeInBrowser('quick add in plain words', () => {
  it('previews the date the words say, adds it with the rest as the title, and keeps the words as typed in one tap', async () => {
    const { page, context } = await openDevice(browser(), { width: 375, height: 800, theme: 'dark' });
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    await signUpOn(page, 'Quick Adder');
    await page.getByText('No tasks').waitFor();
    // chrono-node's English words (its "yesterday|" alternation) are in no script of the first load.
    const holdsParser = async (responses: Response[]) => (await Promise.all(responses.map(async (response) => (await response.text().catch(() => '')).includes('yesterday|')))).some(Boolean);
    expect(await holdsParser(scripts)).toBe(false);

    await newTaskInput(page).tap();
    await newTaskInput(page).pressSequentially('Pay rent tomorrow 9am');
    const preview = page.locator('.tasks-form__preview');
    await until(() => preview.textContent(), (text) => /Due Tomorrow 09:00/.test(text ?? ''));
    expect(await preview.textContent()).toMatch(/^Due Tomorrow 09:00( AM)? · “Pay rent”$/);
    expect(await holdsParser(scripts)).toBe(true);
    await snapshot(page, 'quick-add-preview-375-dark', { fullPage: false });
    await page.getByRole('button', { name: 'Add Task' }).tap();
    await row(page, 'Pay rent').locator('.tasks-item__due').waitFor();
    expect(await row(page, 'Pay rent').locator('.tasks-item__due').textContent()).toMatch(/^Due Tomorrow 09:00/);
    expect(await newTaskInput(page).inputValue()).toBe('');

    await newTaskInput(page).pressSequentially('Book the Friday room next friday');
    const keep = page.getByRole('button', { name: 'Keep words as typed' });
    await keep.tap();
    expect(await keep.getAttribute('aria-pressed')).toBe('true');
    expect(await preview.textContent()).toBe('Adding as typed, with no due date');
    // The tap left the focus (and a phone's keyboard) in the input.
    expect(await newTaskInput(page).evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await row(page, 'Book the Friday room next friday').waitFor();

    const saved = await until(() => serverTodos(page), (todos) => todos.length === 2);
    expect(saved.map(({ title, due }) => ({ title, due }))).toEqual([
      { title: 'Book the Friday room next friday', due: undefined },
      { title: 'Pay rent', due: `${day(1)}T09:00` },
    ]);
    await context.close();
  });
});
