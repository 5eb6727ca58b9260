// One place that changes the page from non-React code (the HTTP client's 401 rule, sign-out).
// The session layout registers Next's router so these moves stay client-side.

export type Navigator = (path: string) => void;

const fullPageNavigator: Navigator = (path) => {
  window.location.assign(path);
};

let current: Navigator = fullPageNavigator;

export function navigate(path: string): void {
  current(path);
}

/** Registers a navigator; the returned function restores the default unless another took over. */
export function setNavigator(navigator: Navigator): () => void {
  current = navigator;
  return () => {
    if (current === navigator) current = fullPageNavigator;
  };
}
