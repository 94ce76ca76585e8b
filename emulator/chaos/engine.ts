import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChaosWorldOptions } from '../../lib/chaos/options.js';
import { GPU_TYPES } from '../pods/catalog.js';
import type { ChaosHooks, VariantId } from '../switches.js';
import type { World } from '../world.js';
import { Draws } from './draws.js';
import { caseHeaders, HEADER_CASES, withExtraMember, type HeaderCase } from './shape.js';
import { drawVariants } from './variants.js';

/** The response header that lists every draw that shaped the answer (the suite's evidence records response headers). */
export const CHAOS_HEADER = 'x-emulator-chaos';

/**
 * How often a request's connection is reset before anything is done with it. Rare, as on a
 * real network; every such reset is a test the suite cannot finish, so it stays rare.
 */
export const RESET_RATE = 1 / 4000;

/** Operations whose body is a document of its own (the interface description), never extended. */
const DOCUMENTS: ReadonlySet<string> = new Set(['getInterfaceDescription']);

/** Names of the extra members; none is a field the spec or the live platform gives an answer. */
const EXTRA_NAMES: readonly string[] = ['chaosRevision', 'chaosShard', 'chaosTrace', 'chaosEpoch'];

/** What one request drew. */
interface Exchange {
  /** `<operation>(<resource>)#<n>`: the request's identity and how many such came before. */
  readonly id: string;
  readonly surface: string;
  readonly operation: string;
  readonly params: Readonly<Record<string, string>>;
  readonly latencyMs: number;
  readonly headerCase: HeaderCase;
  readonly extra: { name: string; value: number } | undefined;
  /** Draws the handler made while answering (capacity, queueing, provisioning). */
  readonly notes: string[];
}

const EXCHANGE = Symbol('chaos exchange');
type Carrier = ServerResponse & { [EXCHANGE]?: Exchange };

/** Header values are visible ASCII; a path parameter may be anything. */
const headerSafe = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?');

/** JSON with sorted keys, so that two bodies with the same members have one fingerprint. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** A GPU create body without what the candidates of one placement differ in: its name and its GPU type. */
function placementOf(body: Readonly<Record<string, unknown>>): string {
  const { name: _name, gpu, ...rest } = body;
  const { id: _id, ...gpuRest } = (gpu ?? {}) as Record<string, unknown>;
  return stableJson({ ...rest, gpu: gpuRest });
}

/**
 * What one request draws: from the world's key, the request's operation and the resource it
 * names, and how many such requests the world had before (`n`, from 1); never from its arrival.
 */
export function requestDraws(seed: number, key: string, operation: string, resource: string, n: number, latencyMs: number) {
  const d = new Draws(seed, `${key}|request|${operation}|${resource}|${n}`);
  return {
    reset: d.unit(0) < RESET_RATE,
    latencyMs: Math.round(d.unit(1) * 2 * latencyMs),
    headerCase: d.pick(2, HEADER_CASES),
    extra: d.unit(3) < 0.5 ? { name: d.pick(4, EXTRA_NAMES), value: d.between(5, 0, 999) } : undefined,
  };
}

/**
 * One world's legal chaos. Everything it decides is drawn from the chaos seed and the world's
 * key, and from what it is asked about: the world's variants, rate-limit quotas and capacity
 * once; per request (by its operation, the resource it names and how many such came before)
 * a reset or a latency, the case of header names and an extra member on the open objects of
 * the answer; per GPU placement the types without capacity; per job its time in the queue; per
 * pod its time provisioning and starting. Each answer lists what shaped it in `x-emulator-chaos`.
 */
export class WorldChaos implements ChaosHooks {
  readonly seed: number;
  readonly key: string;
  readonly #world: World;
  readonly #latencyMs: number;
  /** Share of GPU types refused per placement (0: the world has capacity everywhere). */
  readonly #capacityShare: number;
  readonly #quotas: string;
  /** Only capacity is drawn (`capacity-only`): the world is otherwise the plain emulator. */
  readonly #capacityOnly: boolean;
  #variants: readonly VariantId[] = [];
  readonly #counts = new Map<string, number>();
  /** Draws about a pod or a job, shown on every later answer that names it. */
  readonly #resourceNotes = new Map<string, string>();
  /** Pods placed so far per placement: a new placement draws its capacity afresh. */
  readonly #placed = new Map<string, number>();
  #current: Exchange | undefined;
  /** Requests reset since the last answer, named on the next one. */
  #resets: string[] = [];

  constructor(world: World, options: ChaosWorldOptions) {
    this.#world = world;
    this.seed = options.seed;
    this.key = options.key ?? world.id;
    this.#latencyMs = options.latencyMs ?? 0;
    if (options.realTime) world.clock.configure({ mode: 'auto', scale: 1 });
    const d = new Draws(this.seed, `${this.key}|world`);
    this.#capacityShare = options.capacityShare ?? (d.unit(0) < 0.4 ? 0 : 0.2 + Math.round(d.unit(1) * 60) / 100);
    this.#capacityOnly = options.capacityOnly === true;
    if (this.#capacityOnly) {
      this.#quotas = 'unchanged';
      return;
    }
    // Lower than a test world's (100000 a minute), never low enough to stop a test: on the
    // virtual clock a window resets only when a test moves the clock, so a test's own
    // requests must fit one window there; in real time the suite paces itself.
    const minute = options.realTime ? d.between(2, 600, 2_400) : d.between(2, 2_000, 8_000);
    const hour = minute * d.between(3, 4, 12);
    const day = hour * d.between(4, 4, 12);
    const q = world.rateLimiter.quotas;
    q.minute = Math.min(q.minute, minute);
    q.hour = Math.min(q.hour, hour);
    q.day = Math.min(q.day, day);
    this.#quotas = `${q.minute}/${q.hour}/${q.day}`;
  }

  admit(req: IncomingMessage, res: ServerResponse, operation: string, surface: string, params: Readonly<Record<string, string>>, go: () => void): void {
    if (this.#capacityOnly) {
      (res as Carrier)[EXCHANGE] = { id: operation, surface, operation, params, latencyMs: 0, headerCase: 'lower', extra: undefined, notes: [] };
      go();
      return;
    }
    const resource = Object.values(params).join('/');
    const n = this.#count(`request|${operation}|${resource}`);
    const { reset, ...drawn } = requestDraws(this.seed, this.key, operation, resource, n, this.#latencyMs);
    const id = `${operation}${resource ? `(${resource.slice(0, 80)})` : ''}#${n}`;
    if (reset) {
      // Before authentication, the rate limit and the body: the target did nothing.
      this.#resets.push(id);
      req.socket.destroy();
      return;
    }
    const exchange: Exchange = { id, surface, operation, params, ...drawn, notes: [] };
    (res as Carrier)[EXCHANGE] = exchange;
    if (exchange.latencyMs > 0) setTimeout(go, exchange.latencyMs);
    else go();
  }

  enter(res: ServerResponse): void {
    this.#current = (res as Carrier)[EXCHANGE];
  }

  leave(): void {
    this.#current = undefined;
  }

  shapeBody<T>(res: ServerResponse, body: T): T {
    const exchange = (res as Carrier)[EXCHANGE];
    if (!exchange?.extra || DOCUMENTS.has(exchange.operation) || body === null || typeof body !== 'object') return body;
    const { name, value } = exchange.extra;
    if (exchange.surface === 'graphql') {
      // A GraphQL response holds `data`, `errors` and `extensions` only; the data holds what was selected.
      if (Array.isArray(body) || Object.hasOwn(body, 'extensions')) return body;
      return { ...body, extensions: { [name]: value } };
    }
    return withExtraMember(body, name, value) as T;
  }

  shapeHeaders(res: ServerResponse, headers: Record<string, string | number>): Record<string, string | number> {
    const exchange = (res as Carrier)[EXCHANGE];
    if (!exchange) return headers;
    const parts = [`seed=${this.seed}`, `world=${this.key}`, `req=${exchange.id}`, `quotas<=${this.#quotas}`];
    if (this.#variants.length > 0) parts.push(`variants=${this.#variants.join('+')}`);
    if (this.#capacityShare > 0) parts.push(`capacity-refused-share=${this.#capacityShare}`);
    if (exchange.latencyMs > 0) parts.push(`latency=${exchange.latencyMs}ms`);
    parts.push(`header-case=${exchange.headerCase}`);
    if (exchange.extra && !DOCUMENTS.has(exchange.operation)) parts.push(`extra-member=${exchange.extra.name}`);
    for (const id of Object.values(exchange.params)) {
      const note = this.#resourceNotes.get(id);
      if (note !== undefined && !exchange.notes.includes(note)) parts.push(note);
    }
    parts.push(...exchange.notes);
    if (this.#resets.length > 0) {
      parts.push(`reset-before=${this.#resets.join('+')}`);
      this.#resets = [];
    }
    headers[CHAOS_HEADER] = headerSafe(parts.join('; '));
    return caseHeaders(headers, exchange.headerCase);
  }

  capacityRefused(body: Readonly<Record<string, unknown>>, gpuTypeId: string): boolean {
    if (this.#capacityShare === 0) return false;
    const placement = placementOf(body);
    const epoch = this.#placed.get(placement) ?? 0;
    const draw = (typeId: string): number => new Draws(this.seed, `${this.key}|capacity|${placement}|${epoch}|${typeId}`).unit(0);
    // One NVIDIA type always has capacity for the placement (the suite's candidates are NVIDIA
    // types): the one of the highest draw, which the share would refuse last anyway.
    const nvidia = GPU_TYPES.filter((t) => t.manufacturer === 'NVIDIA').map((t) => t.id);
    const spared = (nvidia.length > 0 ? nvidia : GPU_TYPES.map((t) => t.id)).reduce((best, id) => (draw(id) > draw(best) ? id : best));
    if (gpuTypeId !== spared && draw(gpuTypeId) < this.#capacityShare) {
      this.#note(undefined, `capacity=refused:${gpuTypeId}`);
      return true;
    }
    this.#placed.set(placement, epoch + 1);
    return false;
  }

  queueDelayMs(jobId: string, sync: boolean): number {
    if (this.#capacityOnly) return 0;
    // On a clock that moves only when a test moves it, a /runsync request's own wait would never
    // pass: a deployment's time always moves, so there a synchronous job is not held.
    if (sync && this.#world.clock.settings().mode === 'manual') return 0;
    const n = this.#count(`queue|${jobId}`);
    const d = new Draws(this.seed, `${this.key}|queue|${jobId}|${n}`);
    const ms = d.unit(0) < 0.5 ? 0 : d.between(1, 500, 8_000);
    if (ms > 0) this.#note(jobId, `queue(${jobId}#${n})=${ms}ms`);
    return ms;
  }

  podTimes(podId: string): { provisioningMs: number; startingMs: number } {
    if (this.#capacityOnly) return { provisioningMs: 0, startingMs: 0 };
    const d = new Draws(this.seed, `${this.key}|pod|${podId}`);
    const provisioningMs = d.unit(0) < 0.4 ? 0 : d.between(1, 1_000, 20_000);
    const startingMs = d.unit(2) < 0.4 ? 0 : d.between(3, 1_000, 20_000);
    if (provisioningMs + startingMs > 0) this.#note(podId, `pod(${podId})=provisioning+${provisioningMs}ms,starting+${startingMs}ms`);
    return { provisioningMs, startingMs };
  }

  addVariants(ids: Set<VariantId>): void {
    if (this.#capacityOnly) return;
    this.#variants = drawVariants(this.seed, this.key, ids);
    for (const id of this.#variants) ids.add(id);
  }

  /** The world's draws, for the control surface's description of the world. */
  describe(): Record<string, unknown> {
    return { seed: this.seed, key: this.key, latencyMs: this.#latencyMs, variants: [...this.#variants], quotas: this.#quotas, capacityRefusedShare: this.#capacityShare };
  }

  #count(identity: string): number {
    const n = (this.#counts.get(identity) ?? 0) + 1;
    this.#counts.set(identity, n);
    return n;
  }

  /** Records a draw on the answer being made and, for a pod or a job, on every later answer naming it. */
  #note(resourceId: string | undefined, text: string): void {
    this.#current?.notes.push(text);
    if (resourceId !== undefined) this.#resourceNotes.set(resourceId, text);
  }
}

/** The engine the registry switches on in a world (emulator/worlds.ts). */
export const chaosEngine = (world: World, options: ChaosWorldOptions): ChaosHooks => new WorldChaos(world, options);
