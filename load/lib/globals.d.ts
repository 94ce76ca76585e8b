/**
 * Globals k6 provides that @types/k6 does not declare (and `lib` has no DOM here, on purpose).
 * https://grafana.com/docs/k6/latest/javascript-api/ (console is part of the k6 runtime).
 */
declare const console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
};
