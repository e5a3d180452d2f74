import { bySavedFilterName, filterAddressOf, isSavedFilterAddress, savedFilterNameKey, savedFilterNameProblem, SAVED_FILTER_NAME_EMPTY_MESSAGE, SAVED_FILTER_NAME_TOO_LONG_MESSAGE } from './saved-filter-rules.js';

// The saved filters' rules (docs/PRODUCT.md §10.20 "Saved filters"): the address saved and the name.

const LIST = '65a1f0c2b3d4e5f60718293a';

describe('filterAddressOf', () => {
  it('keeps the list and the filters in one order, and leaves the rest of the address out', () => {
    expect(filterAddressOf('/', '?due=today&label=errand&filter=active')).toBe('/?filter=active&label=errand&due=today');
    expect(filterAddressOf(`/lists/${LIST}`, '')).toBe(`/lists/${LIST}`);
    expect(filterAddressOf('/lists/inbox', '?q=pay%20rent&priority=2&task=abc')).toBe('/lists/inbox?priority=2&q=pay+rent');
    expect(filterAddressOf('/', '?label=')).toBeNull();
  });

  it('names nothing to save for every task unfiltered, another screen, a temporary list or a value that cannot be', () => {
    expect(filterAddressOf('/', '')).toBeNull();
    expect(filterAddressOf('/', '?task=abc')).toBeNull();
    expect(filterAddressOf('/today', '?label=errand')).toBeNull();
    expect(filterAddressOf('/lists/tmp-1', '?label=errand')).toBeNull();
    expect(filterAddressOf('/', '?priority=0')).toBeNull();
    expect(filterAddressOf('/', '?filter=all')).toBeNull();
    expect(filterAddressOf('/', '?due=tomorrow')).toBeNull();
    expect(filterAddressOf('/', `?q=${'x'.repeat(201)}`)).toBeNull();
    expect(filterAddressOf('/', '?q=%20%20')).toBeNull();
  });
});

describe('isSavedFilterAddress', () => {
  it('takes the canonical form only', () => {
    expect(isSavedFilterAddress('/?filter=completed&priority=1')).toBe(true);
    expect(isSavedFilterAddress(`/lists/${LIST}?q=milk`)).toBe(true);
    expect(isSavedFilterAddress('/?priority=1&filter=completed')).toBe(false);
    expect(isSavedFilterAddress('/?priority=1&task=abc')).toBe(false);
    expect(isSavedFilterAddress('/?priority=1#top')).toBe(false);
    expect(isSavedFilterAddress('//elsewhere.example/?priority=1')).toBe(false);
    expect(isSavedFilterAddress('/')).toBe(false);
  });
});

describe('a saved filter name', () => {
  it('is trimmed, 1–60 characters, compared case aside', () => {
    expect(savedFilterNameProblem('  ')).toBe(SAVED_FILTER_NAME_EMPTY_MESSAGE);
    expect(savedFilterNameProblem('x'.repeat(61))).toBe(SAVED_FILTER_NAME_TOO_LONG_MESSAGE);
    expect(savedFilterNameProblem(` ${'x'.repeat(60)} `)).toBeNull();
    expect(savedFilterNameKey(' Errands ')).toBe(savedFilterNameKey('ERRANDS'));
    const names = ['bills', 'Errands', 'Bills', 'apples'].map((name) => ({ name }));
    expect(names.sort(bySavedFilterName).map(({ name }) => name)).toEqual(['apples', 'bills', 'Bills', 'Errands']);
  });
});
