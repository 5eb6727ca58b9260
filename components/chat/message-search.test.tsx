import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Highlighted } from './message-search';

describe('Highlighted', () => {
  afterEach(cleanup);

  it('marks the ranges as text, never as markup, and skips ranges that do not fit', () => {
    const { container } = render(
      <p>
        <Highlighted
          text="<b>pizza</b> and Pizza"
          ranges={[
            { start: 17, end: 22 },
            { start: 3, end: 8 },
            { start: 5, end: 9 }, // overlaps the one before: left out
            { start: 20, end: 99 }, // past the end: left out
          ]}
        />
      </p>,
    );
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['pizza', 'Pizza']);
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('<b>pizza</b> and Pizza');
  });
});
