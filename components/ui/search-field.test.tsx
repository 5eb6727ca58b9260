import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { SearchField, type SearchFieldProps } from './search-field';

function Field(props: Partial<SearchFieldProps>) {
  const [value, setValue] = useState('');
  return <SearchField label="Find" placeholder="Type" value={value} onValueChange={setValue} onEscape={() => false} {...props} />;
}

describe('SearchField', () => {
  afterEach(cleanup);

  it('is a labelled search box in a search landmark, with no button unless asked for', async () => {
    render(<Field />);
    const box = screen.getByRole('searchbox', { name: 'Find' });
    expect(box.closest('[role="search"]')).not.toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(document.activeElement).not.toBe(box);
    await userEvent.type(box, 'ada');
    expect((box as HTMLInputElement).value).toBe('ada');
  });

  it('stops Escape only when the owner did something with it', () => {
    const handled = vi.fn(() => true);
    const { unmount } = render(<Field onEscape={handled} />);
    expect(fireEvent.keyDown(screen.getByRole('searchbox'), { key: 'Escape' })).toBe(false);
    expect(handled).toHaveBeenCalledOnce();
    unmount();
    render(<Field onEscape={() => false} />);
    expect(fireEvent.keyDown(screen.getByRole('searchbox'), { key: 'Escape' })).toBe(true);
  });

  it('takes the focus when asked, and keeps it in the box after its button', async () => {
    const onClick = vi.fn();
    render(<Field focusOnMount action={{ label: 'Close', onClick }} />);
    const box = screen.getByRole('searchbox', { name: 'Find' });
    expect(document.activeElement).toBe(box);
    const button = screen.getByRole('button', { name: 'Close' });
    expect(button.getAttribute('title')).toBe('Close');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
    expect(document.activeElement).toBe(box);
  });
});
