/**
 * A minimal RFC 9651 (Structured Field Values for HTTP) parser for Lists, the one the suite, the
 * client and the k6 scripts in `load/` share (through ./rate-limit-fields.ts).
 *
 * Why not the `structured-headers` package: k6 cannot import npm packages by name, and a
 * relative path into `node_modules` ties every script to an npm install, which a k6-operator
 * ConfigMap or a `k6 cloud` archive of `load/` does not carry; its parser also reaches for
 * `TextDecoder` and `atob`, globals k6 does not promise. This file is plain ECMAScript with no
 * imports outside lib/iso, and `test/load-structured-fields.test.ts` checks it against `structured-headers`
 * as the oracle.
 */
import { StructuredFieldError } from './errors.ts';

export type BareItem =
  | { type: 'integer'; value: number }
  | { type: 'decimal'; value: number }
  | { type: 'string'; value: string }
  | { type: 'token'; value: string }
  /** The base64 text between the colons, undecoded (k6 lacks `atob`; nothing here needs the bytes). */
  | { type: 'binary'; value: string }
  | { type: 'boolean'; value: boolean }
  | { type: 'date'; value: number }
  | { type: 'displaystring'; value: string };

/** Parameters in order of first appearance; a repeated key keeps its place and takes the last value. */
export type Parameters = [string, BareItem][];

export interface SfItem { kind: 'item'; value: BareItem; params: Parameters }
export interface SfInnerList { kind: 'inner-list'; items: SfItem[]; params: Parameters }
export type ListMember = SfItem | SfInnerList;


const DIGIT = /^[0-9]$/;
const ALPHA = /^[A-Za-z]$/;
const LCALPHA = /^[a-z]$/;
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;
const KEY_CHAR = /^[a-z0-9_\-.*]$/;
const BASE64 = /^[A-Za-z0-9+/=]*$/;
const HEX_LOWER = /^[0-9a-f]{2}$/;
const MAX_INTEGER = 999999999999999;

/** The RFC 9651 parsing algorithms over one input, as closures (k6 runs this: no class fields). */
function parser(input: string) {
  let pos = 0;

  function fail(message: string): never {
    throw new StructuredFieldError(message, pos);
  }

  function peek(): string { return input.charAt(pos); }
  function done(): boolean { return pos >= input.length; }
  function take(): string { return input.charAt(pos++); }
  function skipSp(): void { while (peek() === ' ') pos++; }
  function skipOws(): void { while (peek() === ' ' || peek() === '\t') pos++; }

  function list(): ListMember[] {
    const members: ListMember[] = [];
    while (!done()) {
      members.push(peek() === '(' ? innerList() : item());
      skipOws();
      if (done()) return members;
      if (take() !== ',') { pos--; fail('expected "," between list members'); }
      skipOws();
      if (done()) fail('trailing comma');
    }
    return members;
  }

  function innerList(): SfInnerList {
    pos++; // "("
    const items: SfItem[] = [];
    while (!done()) {
      skipSp();
      if (peek() === ')') {
        pos++;
        return { kind: 'inner-list', items, params: parameters() };
      }
      items.push(item());
      const next = peek();
      if (next !== ' ' && next !== ')') fail('expected " " or ")" in an inner list');
    }
    return fail('unterminated inner list');
  }

  function item(): SfItem {
    const value = bareItem();
    return { kind: 'item', value, params: parameters() };
  }

  function bareItem(): BareItem {
    const c = peek();
    if (c === '-' || DIGIT.test(c)) return number();
    if (c === '"') return { type: 'string', value: string() };
    if (c === '*' || ALPHA.test(c)) return { type: 'token', value: token() };
    if (c === ':') return { type: 'binary', value: binary() };
    if (c === '?') return { type: 'boolean', value: boolean() };
    if (c === '@') return date();
    if (c === '%') return { type: 'displaystring', value: displayString() };
    return fail(c === '' ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`);
  }

  function parameters(): Parameters {
    const params: Parameters = [];
    while (peek() === ';') {
      pos++;
      skipSp();
      const key = parseKey();
      let value: BareItem = { type: 'boolean', value: true };
      if (peek() === '=') { pos++; value = bareItem(); }
      const existing = params.find((p) => p[0] === key);
      if (existing) existing[1] = value;
      else params.push([key, value]);
    }
    return params;
  }

  function parseKey(): string {
    const first = peek();
    if (!(LCALPHA.test(first) || first === '*')) fail('a key starts with a lowercase letter or "*"');
    let out = '';
    while (!done() && KEY_CHAR.test(peek())) out += take();
    return out;
  }

  function number(): BareItem {
    let sign = 1;
    if (peek() === '-') { pos++; sign = -1; }
    if (!DIGIT.test(peek())) fail('expected a digit');
    let digits = '';
    let decimal = false;
    while (!done()) {
      const c = peek();
      if (DIGIT.test(c)) digits += c;
      else if (!decimal && c === '.') {
        if (digits.length > 12) fail('a decimal has at most 12 integer digits');
        digits += c;
        decimal = true;
      } else break;
      pos++;
      if (!decimal && digits.length > 15) fail('an integer has at most 15 digits');
      if (decimal && digits.length > 16) fail('a decimal has at most 16 characters');
    }
    if (!decimal) {
      const value = sign * Number(digits);
      if (Math.abs(value) > MAX_INTEGER) fail('integer out of range');
      return { type: 'integer', value };
    }
    if (digits.endsWith('.')) fail('a decimal needs a fraction digit');
    if (digits.length - digits.indexOf('.') - 1 > 3) fail('a decimal has at most 3 fraction digits');
    return { type: 'decimal', value: sign * Number(digits) };
  }

  function string(): string {
    pos++; // '"'
    let out = '';
    while (!done()) {
      const c = take();
      if (c === '\\') {
        const next = take();
        if (next !== '"' && next !== '\\') { pos--; fail('only \\" and \\\\ escapes are allowed'); }
        out += next;
      } else if (c === '"') return out;
      else if (c < ' ' || c > '~') { pos--; fail('a string holds printable ASCII only'); }
      else out += c;
    }
    return fail('unterminated string');
  }

  function token(): string {
    let out = take();
    while (!done() && (TCHAR.test(peek()) || peek() === ':' || peek() === '/')) out += take();
    return out;
  }

  function binary(): string {
    pos++; // ":"
    const end = input.indexOf(':', pos);
    if (end === -1) fail('unterminated byte sequence');
    const b64 = input.slice(pos, end);
    if (!BASE64.test(b64) || !decodableBase64(b64)) fail('a byte sequence holds decodable base64 only');
    pos = end + 1;
    return b64;
  }

  function boolean(): boolean {
    pos++; // "?"
    const c = take();
    if (c === '1') return true;
    if (c === '0') return false;
    pos--;
    return fail('a boolean is ?0 or ?1');
  }

  function date(): BareItem {
    pos++; // "@"
    const n = number();
    if (n.type !== 'integer') fail('a date is an integer');
    // Seconds since the epoch: `@-0` is the instant `@0` (a Date has no negative zero).
    return { type: 'date', value: (n.value as number) || 0 };
  }

  function displayString(): string {
    pos++; // "%"
    if (take() !== '"') { pos--; fail('a display string starts with %"'); }
    const bytes: number[] = [];
    while (!done()) {
      const c = take();
      if (c < ' ' || c > '~') { pos--; fail('a display string holds printable ASCII only'); }
      if (c === '%') {
        const hex = input.slice(pos, pos + 2);
        if (!HEX_LOWER.test(hex)) fail('expected two lowercase hex digits after "%"');
        bytes.push(parseInt(hex, 16));
        pos += 2;
      } else if (c === '"') {
        const text = decodeUtf8(bytes);
        if (text === undefined) fail('a display string must be valid UTF-8');
        return text as string;
      } else bytes.push(c.charCodeAt(0));
    }
    return fail('unterminated display string');
  }

  return { list, skipSp, done, fail };
}

/**
 * Whether base64 text decodes under the WHATWG forgiving-base64 rules (missing padding is
 * tolerated, as RFC 9651 asks of parsers; a lone trailing sextet or a stray "=" is not).
 */
function decodableBase64(b64: string): boolean {
  let s = b64;
  if (s.length % 4 === 0) s = s.endsWith('==') ? s.slice(0, -2) : s.endsWith('=') ? s.slice(0, -1) : s;
  return s.length % 4 !== 1 && !s.includes('=');
}

/** Strict UTF-8 decoding (no overlongs, no surrogates); undefined when invalid. */
export function decodeUtf8(bytes: readonly number[]): string | undefined {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0 || i + need >= bytes.length) return undefined;
    let cp = need === 0 ? b : b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const cont = bytes[i + k]!;
      if ((cont & 0xc0) !== 0x80) return undefined;
      cp = (cp << 6) | (cont & 0x3f);
    }
    const min = [0, 0x80, 0x800, 0x10000][need]!;
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
    out += String.fromCodePoint(cp);
    i += need + 1;
  }
  return out;
}

/**
 * Parses a field value as an RFC 9651 List. Throws {@link StructuredFieldError} when the
 * value is not one (leading and trailing spaces are allowed, as the RFC's parser allows).
 */
export function parseList(value: string): ListMember[] {
  const p = parser(value);
  p.skipSp();
  const list = p.list();
  p.skipSp();
  if (!p.done()) p.fail('unexpected trailing characters');
  return list;
}

/** A parameter's value by key, if present. */
export function param(params: Parameters, key: string): BareItem | undefined {
  const found = params.find((p) => p[0] === key);
  return found ? found[1] : undefined;
}
