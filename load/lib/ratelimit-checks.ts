/**
 * The rate-limit scenario's checks, named as sentences (they are what the k6 summary and the
 * conformance report list). Each says what a conformant target does; the spec's words behind
 * them are in load/README.md.
 */
export const CHECK = {
  status: 'every answer under concurrency is 2xx or 429',
  syntax: 'RateLimit and RateLimit-Policy parse as structured-field Lists of Strings or Tokens with Integer parameters',
  windows: 'RateLimit and RateLimit-Policy each have one minute, one hour and one day member',
  policyConstant: 'q and w stay the same on every answer',
  windowLength: 'w is 60 for minute, 3600 for hour and 86400 for day',
  rBounds: 'r stays between 0 and the quota q',
  tBounds: 't never exceeds the window length w',
  rFalls: 'within a window r only falls',
  rDistinct: 'no two admitted requests in one window see the same r',
  exact: 'a window refuses only after admitting requests down to r=0',
  refusedWhenExhausted: 'a 429 comes only when a window shows r=0',
  detailNamesWindow: 'a 429 detail names the exhausted window',
  retryAfter: "a 429 carries Retry-After in seconds, no earlier than the exhausted window's t",
  problemJson: 'a 429 answers application/problem+json',
  recovered: 'after waiting Retry-After, a request succeeds again',
} as const;
