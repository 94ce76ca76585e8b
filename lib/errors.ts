/**
 * Typed errors with stable codes. Everything the suite throws on purpose is a CpcError, so
 * the CLI can turn it into a message and an exit code, never a stack trace.
 */
export class CpcError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad configuration: the CLI exits with 2. */
export class ConfigError extends CpcError {
  constructor(message: string, readonly setting?: string) {
    super('CPC_CONFIG_INVALID', message);
  }
}

/** The target could not be reached at all. */
export class TargetUnreachableError extends CpcError {
  constructor(readonly url: string, cause: string) {
    super('CPC_TARGET_UNREACHABLE', `cannot reach ${url}: ${cause}`);
  }
}

/** A contract check failed; carries the rule it breaks for the report. */
export class ConformanceError extends CpcError {
  constructor(readonly ruleId: string, message: string, readonly details: readonly string[] = []) {
    super('CPC_NONCONFORMANT', `[${ruleId}] ${message}${details.length ? '\n  ' + details.join('\n  ') : ''}`);
  }
}
