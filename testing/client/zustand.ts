// zustand for the client's unit tests, as zustand's testing guide has it: every store is created
// by the real zustand, its initial state is remembered, and after each test every store goes back
// to it. Stores therefore need no "reset for tests" export. Installed by vitest-setup.ts.
import { act } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import type * as Zustand from 'zustand';

const actual = await vi.importActual<typeof Zustand>('zustand');

// Only what the product uses; `export * from 'zustand'` here would import this mock itself.
export const useStore = actual.useStore;
const resets = new Set<() => void>();

function remembered<S>(creator: Zustand.StateCreator<S>) {
  const store = actual.create(creator);
  const initial = store.getInitialState();
  resets.add(() => store.setState(initial, true));
  return store;
}

export const create = (<S>(creator?: Zustand.StateCreator<S>) =>
  creator === undefined ? remembered : remembered(creator)) as typeof Zustand.create;

function rememberedVanilla<S>(creator: Zustand.StateCreator<S>) {
  const store = actual.createStore(creator);
  const initial = store.getInitialState();
  resets.add(() => store.setState(initial, true));
  return store;
}

export const createStore = (<S>(creator?: Zustand.StateCreator<S>) =>
  creator === undefined ? rememberedVanilla : rememberedVanilla(creator)) as typeof Zustand.createStore;

afterEach(() => {
  act(() => {
    for (const reset of resets) reset();
  });
});
