/** A small leveled logger; the server writes to stderr, tests silence it. */
export interface Logger {
  info(msg: string, ...rest: unknown[]): void;
  warn(msg: string, ...rest: unknown[]): void;
  error(msg: string, ...rest: unknown[]): void;
}

export function consoleLogger(level: "silent" | "info" = "info"): Logger {
  const stamp = () => new Date().toISOString();
  if (level === "silent") return { info() {}, warn() {}, error() {} };
  return {
    info: (m, ...r) => console.error(`${stamp()} INFO  ${m}`, ...r),
    warn: (m, ...r) => console.error(`${stamp()} WARN  ${m}`, ...r),
    error: (m, ...r) => console.error(`${stamp()} ERROR ${m}`, ...r),
  };
}
