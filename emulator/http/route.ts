import type { HttpMethod } from '../types.js';

/** Every method a route may serve; a 405's `Allow` names those its path serves (RFC 9110, 15.5.6). */
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Default maximum body for operations the spec gives no limit: 1 MiB. */
export const DEFAULT_MAX_BODY = 1024 * 1024;
