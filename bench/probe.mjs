// Preloaded into the server under test (`node --import bench/probe.mjs main.mjs`), so the server's
// own code stays untouched. It measures the event-loop delay with perf_hooks and answers the bench
// over the IPC channel the bench opened when it spawned the process:
//   {probe: 'reset'}  → starts a new measuring window          ← {probe: 'reset', ok: true}
//   {probe: 'report'} → the window's figures and memory        ← {probe: 'report', ...}
//   {probe: 'gc'}     → a full garbage collection, then report (for memory per socket)
//   {probe: 'profile-start'} / {probe: 'profile-stop', file} → a V8 CPU profile of exactly that
//                       window (unlike --cpu-prof, which covers start-up too), written to `file`
// Without an IPC channel (the server started by hand) it does nothing.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

if (process.send && process.channel) {
  // 10 ms sampling is the resolution perf_hooks recommends; the histogram records in nanoseconds.
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let windowStart = performance.now();

  // A gc() for this probe only: flags set at run time, no --expose-gc on the command line.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');

  const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
  const report = () => {
    const memory = process.memoryUsage();
    return {
      windowMs: Math.round(performance.now() - windowStart),
      loopDelay: {
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        mean: ms(histogram.mean),
        samples: histogram.count,
      },
      memory: { rss: memory.rss, heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, external: memory.external },
    };
  };

  let session;
  const post = (method, params) =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

  process.on('message', async (message) => {
    if (!message || typeof message !== 'object' || !('probe' in message)) return;
    if (message.probe === 'profile-start') {
      session = new Session();
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 500 });
      await post('Profiler.start');
      process.send({ probe: 'profile-start', ok: true });
      return;
    }
    if (message.probe === 'profile-stop') {
      const { profile } = await post('Profiler.stop');
      session.disconnect();
      writeFileSync(message.file, JSON.stringify(profile));
      process.send({ probe: 'profile-stop', ok: true });
      return;
    }
    if (message.probe === 'reset') {
      histogram.reset();
      windowStart = performance.now();
      process.send({ probe: 'reset', ok: true });
    } else if (message.probe === 'report') {
      process.send({ probe: 'report', ...report() });
    } else if (message.probe === 'gc') {
      gc();
      process.send({ probe: 'gc', ...report() });
    }
  });
  // The channel must not keep a server alive that is otherwise shutting down.
  process.channel.unref();
}
