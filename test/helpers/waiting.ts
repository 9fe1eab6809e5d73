/** Polls `check` until it answers true; fails after `timeoutMs`, naming `what`. */
export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 3000,
  what = 'condition',
  stepMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/** Retries `check` until it stops throwing, and answers its result; after `timeoutMs`, its last error. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 8000, stepMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, stepMs));
    }
  }
}
