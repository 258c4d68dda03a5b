// Child-process bookkeeping for the benchmark: every process we start is registered here so
// that it is killed on normal exit, on error and on SIGINT/SIGTERM — a benchmark that leaves a
// server holding a port (or a load generator burning a core) poisons the next run.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';

const children = new Set();

/** Registers a child so that killAll() reaches it; forgets it once it has exited. */
export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Parent pid of a process, from /proc/<pid>/stat (comm may contain spaces and parens: split after the last ')'). */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

/** Direct children of pid (cluster workers of a primary), found by scanning /proc for their ppid. */
export function childPids(pid) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && parentOf(entry) === pid) out.push(Number(entry));
  }
  return out;
}

/** VmRSS and VmHWM (peak RSS) of a process in MB, or null once it is gone. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/**
 * Samples the RSS of a changing set of pids (a cluster can replace a worker) until stopped.
 * Returns, per pid, the highest VmRSS seen and the last VmHWM read (the kernel's own peak, which
 * also catches spikes between samples).
 */
export function sampleRss(pidsFn, intervalMs = 200) {
  const seen = new Map();
  const sample = () => {
    for (const pid of pidsFn()) {
      const mem = memoryOf(pid);
      if (!mem) continue;
      const prev = seen.get(pid) ?? { maxRssMB: 0, hwmMB: 0 };
      seen.set(pid, { maxRssMB: Math.max(prev.maxRssMB, mem.rssMB), hwmMB: Math.max(prev.hwmMB, mem.hwmMB) });
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return () => {
    clearInterval(timer);
    sample();
    return seen;
  };
}

/** CPU time (utime + stime, in seconds) used so far by the given processes, all their threads included. */
export function cpuSecondsOf(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // exited
    }
  }
  return ticks / 100; // USER_HZ
}

/** CPU time (utime + stime, in clock ticks), parent pid and command name of every process on the machine. */
export function cpuSnapshot() {
  const procs = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after "(comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      procs.set(Number(entry), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), comm });
    } catch {
      // exited while we looked
    }
  }
  return { at: Date.now(), procs };
}

/**
 * Cores' worth of CPU used between two snapshots by processes outside this run's own process
 * tree and not named in `ownComms` (e.g. `postgres`: the database server a PostgreSQL row
 * works on is part of the measurement, not a neighbour). On a shared machine another build or
 * load test skews every number; this says when. (Processes that both start and end between the
 * snapshots are not seen.)
 */
export function foreignCores(before, after, rootPid = process.pid, ownComms = []) {
  const ours = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of after.procs) {
      if (!ours.has(pid) && ours.has(p.ppid)) {
        ours.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const [pid, p] of after.procs) {
    if (!ours.has(pid) && !ownComms.includes(p.comm)) ticks += Math.max(0, p.ticks - (before.procs.get(pid)?.ticks ?? 0));
  }
  const CLOCK_TICKS = 100; // USER_HZ: 100 on every mainstream Linux
  return ticks / CLOCK_TICKS / Math.max(0.001, (after.at - before.at) / 1000);
}

/** A port that was free a moment ago (the server needs it up front: its home URL contains it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves with the exit code, or with null if the process is still running after ms. */
export function waitExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/**
 * SIGKILLs every tracked child and its direct children. Synchronous, so it also works from
 * process.on('exit'). Workers are collected before the primary dies: afterwards they would be
 * re-parented and no longer findable by ppid.
 */
export function killAll() {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const grandchildren = childPids(child.pid);
    signal(child.pid, 'SIGKILL');
    for (const pid of grandchildren) signal(pid, 'SIGKILL');
  }
  children.clear();
}

/** Stops every child on any way out of the run, and bounds the run's total time. */
export function installExitHandlers({ deadlineMs }) {
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      console.error(`\nbench: ${sig}, stopping all child processes`);
      killAll();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (error) => {
    console.error('bench: fatal:', error?.stack ?? error);
    killAll();
    process.exit(1);
  });
  process.on('unhandledRejection', (error) => {
    console.error('bench: fatal:', error?.stack ?? error);
    killAll();
    process.exit(1);
  });
  // Whatever hangs (a server that never answers, a stuck load run), the run ends by itself.
  setTimeout(() => {
    console.error(`bench: exceeded the ${Math.round(deadlineMs / 1000)} s deadline, aborting`);
    killAll();
    process.exit(1);
  }, deadlineMs).unref();
}
