import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { preloadable } from './preloadable';

// A component kept off the first load (preloadable.tsx): opened before its code arrived, it keeps its state
// when the page around it renders again after the code has come.

function Field() {
  const [text, setText] = useState('');
  return <input aria-label="Name" value={text} onChange={(event) => setText(event.target.value)} />;
}

describe('preloadable', () => {
  it('keeps a component that mounted before its code arrived through the next renders', async () => {
    const user = userEvent.setup();
    let arrive: (component: typeof Field) => void = () => undefined;
    const { Component } = preloadable(() => new Promise<typeof Field>((resolve) => (arrive = resolve)));
    const { rerender } = render(<Component key="one" />);
    expect(screen.queryByRole('textbox', { name: 'Name' })).not.toBeInTheDocument();
    await act(async () => arrive(Field));
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Errands');
    rerender(<Component key="one" />);
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Errands');
    // One mounted after the code came renders it at once.
    rerender(<Component key="two" />);
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });
});
