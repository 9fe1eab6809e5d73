/**
 * The service's one logger. The standalone server prints to the console (the default); a host that
 * has a better place for these lines, such as VS Code's "Kanban" output channel, points the logger
 * there with `setLogSink`, so warnings about broken files and failed deliveries reach the user.
 */
export type LogLevel = 'info' | 'warn' | 'error';

/** Where log lines go. `detail` is an error or value worth printing after the message (a stack). */
export type LogSink = (level: LogLevel, message: string, detail?: unknown) => void;

const consoleSink: LogSink = (level, message, detail) => {
  const print = level === 'info' ? console.log : level === 'warn' ? console.warn : console.error;
  if (detail === undefined) print(message);
  else print(message, detail);
};

let sink: LogSink = consoleSink;

/** Send every later line to `next`; the returned function puts the console back. */
export function setLogSink(next: LogSink): () => void {
  sink = next;
  return () => {
    if (sink === next) sink = consoleSink;
  };
}

function write(level: LogLevel, message: string, detail?: unknown): void {
  try {
    sink(level, message, detail);
  } catch {
    // A sink that fails (a closed channel) must not break the operation that logs.
    consoleSink(level, message, detail);
  }
}

export const log = {
  info: (message: string, detail?: unknown) => write('info', message, detail),
  warn: (message: string, detail?: unknown) => write('warn', message, detail),
  error: (message: string, detail?: unknown) => write('error', message, detail),
};
