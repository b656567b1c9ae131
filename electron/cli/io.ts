// The CLI's window on the world, injectable so commands run in-process in tests.

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Aborts when the user interrupts (Ctrl-C). */
  signal?: AbortSignal;
}

/** The real process streams. */
export function processIo(signal?: AbortSignal): CliIo {
  return {
    stdout: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    env: process.env,
    ...(signal ? { signal } : {}),
  };
}
