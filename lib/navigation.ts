// One place that changes the page from non-React code (the HTTP client's 401 rule, sign-out,
// opening a conversation). The session layout registers Next's router so these moves stay
// client-side.

export interface NavigateOptions {
  /** Adds a history entry (Back returns here) instead of replacing the current one. */
  push?: boolean;
}

export type Navigator = (path: string, options?: NavigateOptions) => void;

// Before the router is registered (or without one), a plain page load.
const fullPageNavigator: Navigator = (path) => {
  window.location.assign(path);
};

let current: Navigator = fullPageNavigator;

export function navigate(path: string, options?: NavigateOptions): void {
  if (options) current(path, options);
  else current(path);
}

/** Registers a navigator; the returned function restores the default unless another took over. */
export function setNavigator(navigator: Navigator): () => void {
  current = navigator;
  return () => {
    if (current === navigator) current = fullPageNavigator;
  };
}
