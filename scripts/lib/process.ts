import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import net from "node:net";

// Small process helpers for the launcher and the test rig: spawn with prefixed output,
// wait for a port or a condition with a deadline (never a fixed sleep).

export function prefixLines(
  prefix: string,
  stream: NodeJS.ReadableStream | null,
  out: NodeJS.WritableStream,
) {
  if (!stream) return;
  let buf = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      out.write(`${prefix} ${buf.slice(0, i)}\n`);
      buf = buf.slice(i + 1);
    }
  });
  stream.on("end", () => {
    if (buf) out.write(`${prefix} ${buf}\n`);
  });
}

export function spawnPrefixed(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions = {},
): ChildProcess {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  const prefix = `[${name}]`.padEnd(12);
  prefixLines(prefix, child.stdout, process.stdout);
  prefixLines(prefix, child.stderr, process.stderr);
  return child;
}

/** Runs a command to completion; rejects with its exit code and last output lines. */
export function run(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnPrefixed(name, command, args, options);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${name} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

export function portOpen(port: number, host = "127.0.0.1", timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Polls `check` until it returns a value other than undefined/false, or the deadline passes. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 30_000, intervalMs = 250 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? `: ${lastError.message}` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** SIGTERM, then SIGKILL after graceMs; resolves when the process has exited. */
export function terminate(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
