/**
 * The errors of code that k6 runs (the load scripts and lib/iso): plain ECMAScript, no imports,
 * so a k6 bundle can carry them. They are part of the one catalog: lib/errors.ts lists them
 * in ERROR_CATALOG with their codes, and test/errors.test.ts holds them to it.
 */

/** A bad load knob or target variable: the run stops before any request (k6 reports a script error). */
export class LoadConfigError extends Error {
  declare readonly code: 'ERR_CPC_LOAD_CONFIG';
  constructor(message: string) {
    super(message);
    this.code = 'ERR_CPC_LOAD_CONFIG';
    this.name = 'LoadConfigError';
  }
}

/** A control-surface call of a load script did not answer as documented: the run cannot start. */
export class ControlSurfaceError extends Error {
  declare readonly code: 'ERR_CPC_LOAD_CONTROL';
  constructor(message: string) {
    super(message);
    this.code = 'ERR_CPC_LOAD_CONTROL';
    this.name = 'ControlSurfaceError';
  }
}

/** Input that is not a valid Structured Field (RFC 9651); `at` is the offset where parsing stopped. */
export class StructuredFieldError extends Error {
  declare readonly code: 'ERR_CPC_SF_PARSE';
  declare readonly at: number;
  constructor(message: string, at: number) {
    super(`${message} at offset ${at}`);
    this.name = 'StructuredFieldError';
    this.code = 'ERR_CPC_SF_PARSE';
    this.at = at;
  }
}
