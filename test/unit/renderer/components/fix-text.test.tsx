// @vitest-environment happy-dom
/** A fix sentence's backticked commands show as code; an unpaired backtick and markup stay text. */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FixText } from '../../../../renderer/src/components/fix-text.js';

afterEach(cleanup);

describe('FixText', () => {
  it('shows each backticked command as code and the rest as text', () => {
    const { container } = render(<FixText text="Run `claude login` in a terminal, then set `X`." />);
    expect([...container.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['claude login', 'X']);
    expect(container.textContent).toBe('Run claude login in a terminal, then set X.');
  });

  it('an unpaired backtick is left as it is; markup is never markup', () => {
    const { container } = render(<FixText text="odd ` one <b>x</b>" />);
    expect(container.querySelector('code')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('odd ` one <b>x</b>');
  });
});
