import { describe, expect, it, vi } from 'vitest';
import { navigate, setNavigator } from './navigation';

describe('navigation', () => {
  it('uses the registered navigator until it unregisters', () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const replace = vi.fn();
    const unregister = setNavigator(replace);

    navigate('/main');
    expect(replace).toHaveBeenCalledWith('/main');
    expect(assign).not.toHaveBeenCalled();

    unregister();
    navigate('/account');
    expect(replace).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith('/account');
  });

  it('a stale unregister does not remove a newer navigator', () => {
    const first = vi.fn();
    const second = vi.fn();
    const unregisterFirst = setNavigator(first);
    const unregisterSecond = setNavigator(second);
    unregisterFirst();
    navigate('/main');
    expect(second).toHaveBeenCalledWith('/main');
    expect(first).not.toHaveBeenCalled();
    unregisterSecond();
  });
});
