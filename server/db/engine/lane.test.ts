import { describe, expect, it } from 'vitest';
import { deferred } from '../../../lib/testing/deferred';
import { createKeyedLanes, createLane } from './lane';

describe('createLane', () => {
  it('runs one task at a time, in the order given, each answer to its caller', async () => {
    const lane = createLane();
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    const started: number[] = [];
    const answers = gates.map((gate, index) =>
      lane.run(() => {
        started.push(index);
        return gate.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0]);
    gates[1]!.resolve('b');
    gates[0]!.resolve('a');
    expect(await answers[0]).toBe('a');
    await expect.poll(() => started).toEqual([0, 1]);
    gates[2]!.resolve('c');
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
    expect(started).toEqual([0, 1, 2]);
  });

  it('passes a failure to its caller and goes on with the next task, a task that throws at once included', async () => {
    const lane = createLane();
    const failed = lane.run(() => Promise.reject(new Error('no database')));
    const thrown = lane.run(() => {
      throw new Error('bad input');
    });
    const after = lane.run(async () => 'still running');
    await expect(failed).rejects.toThrow('no database');
    await expect(thrown).rejects.toThrow('bad input');
    expect(await after).toBe('still running');
  });

  it('runs up to its width at once', async () => {
    const lane = createLane(2);
    let running = 0;
    let most = 0;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    };
    await Promise.all(Array.from({ length: 6 }, () => lane.run(task)));
    expect(most).toBe(2);
    expect(() => createLane(0)).toThrow(RangeError);
  });
});

describe('createKeyedLanes', () => {
  it('runs one task at a time per key, keys side by side, and forgets a key with nothing left', async () => {
    const lanes = createKeyedLanes();
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    const started: string[] = [];
    const run = (key: number, name: string, gate: Promise<string>) =>
      lanes.run(key, () => {
        started.push(name);
        return gate;
      });
    const answers = [run(1, 'first of 1', gates[0]!.promise), run(1, 'second of 1', gates[1]!.promise), run(2, 'first of 2', gates[2]!.promise)];
    await Promise.resolve();
    expect(started).toEqual(['first of 1', 'first of 2']);
    expect(lanes.size).toBe(2);
    gates[2]!.resolve('c');
    gates[0]!.resolve('a');
    await expect.poll(() => started).toEqual(['first of 1', 'first of 2', 'second of 1']);
    gates[1]!.resolve('b');
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
    expect(lanes.size).toBe(0);
  });

  it('holds a key\'s turn until it is released, once however often release is called', async () => {
    const lanes = createKeyedLanes();
    const release = await lanes.hold(7);
    let second: (() => void) | undefined;
    const waiting = lanes.hold(7).then((granted) => (second = granted));
    const other = await lanes.hold(8);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(second).toBeUndefined();
    release();
    release();
    await waiting;
    expect(second).toBeTypeOf('function');
    expect(lanes.size).toBe(2);
    second!();
    other();
    await expect.poll(() => lanes.size).toBe(0);
  });
});
