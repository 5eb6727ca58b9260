// A lane for database work that must not crowd out the message writer: presence subscriptions and
// typing checks. The pool has one connection on PGlite and answers in arrival order, so 200 people
// subscribing at once (a reconnect after a restart) queued 200 presence queries, 2.3 ms each,
// ahead of the next message batch: every send waited almost half a second. Through a lane they
// go one at a time, so a batch waits behind one of them at most, and they finish a little later.
export interface Lane {
  /** Runs `work` once fewer than the lane's width are running; its answer or error, as is. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createLane(width = 1): Lane {
  if (!Number.isInteger(width) || width < 1) throw new RangeError(`a lane is at least 1 wide, not ${width}`);
  const queue: (() => void)[] = [];
  let running = 0;

  const next = () => {
    if (running >= width) return;
    const start = queue.shift();
    if (!start) return;
    running += 1;
    start();
  };

  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push(() => {
          // A task that throws at once settles like one that rejects, and the lane goes on.
          Promise.resolve()
            .then(work)
            .then(resolve, reject)
            .finally(() => {
              running -= 1;
              next();
            });
        });
        next();
      });
    },
  };
}

export interface KeyedLanes {
  /** Runs `work` in `key`'s lane: one at a time per key (the lane's width), keys side by side. */
  run<T>(key: number, work: () => Promise<T>): Promise<T>;
  /**
   * Waits for `key`'s turn and keeps it until the answer's release is called (work that goes on
   * past a promise, such as a response streamed to its client). Releasing twice does nothing.
   */
  hold(key: number): Promise<() => void>;
  /** Keys with work running or waiting (an idle key's lane is dropped). */
  readonly size: number;
}

/** A lane per key (an account), made on first use and dropped once it has nothing left. */
export function createKeyedLanes(width = 1): KeyedLanes {
  const lanes = new Map<number, { lane: Lane; waiting: number }>();
  const run = <T>(key: number, work: () => Promise<T>): Promise<T> => {
    const entry = lanes.get(key) ?? { lane: createLane(width), waiting: 0 };
    lanes.set(key, entry);
    entry.waiting += 1;
    return entry.lane.run(work).finally(() => {
      entry.waiting -= 1;
      if (entry.waiting === 0) lanes.delete(key);
    });
  };
  return {
    run,
    hold(key) {
      return new Promise((granted) => {
        void run(key, () => new Promise<void>((release) => granted(() => release())));
      });
    },
    get size() {
      return lanes.size;
    },
  };
}
