/**
 * Faults and variants as the lowest layer sees them: the shape of a catalog entry, the ids a
 * world can switch on, and what a world needs to check names. The catalogs themselves are
 * assembled at the top (`faults.ts` from each surface's table, `variants.ts`) and handed to
 * each world (`catalog.ts`), so nothing here or in `world.ts` imports a surface.
 *
 * The id types grow by declaration merging: each fault table adds its ids to
 * {@link FaultRegistry}, and the variant catalog its ids to {@link VariantRegistry}, so
 * `world.fault('pods.typo')` stays a type error without `world.ts` importing the tables.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FaultDef {
  /** The rule this fault breaks; the detection matrix expects the suite to fail it. */
  rule: string;
  description: string;
}

/** Every fault id, one member per id; each surface's `faults.ts` adds its own. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface FaultRegistry {}
/** Every variant id, one member per id; `variants.ts` adds them. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface VariantRegistry {}

export type FaultId = keyof FaultRegistry & string;
export type VariantId = keyof VariantRegistry & string;

/** What a world checks fault and variant names against (the catalogs, passed down from the top). */
export interface Switches {
  isFault(id: string): id is FaultId;
  /** Variant and variant-set names to variant ids; unknown names apart. */
  expandVariants(names: readonly string[]): { ids: VariantId[]; unknown: string[] };
  /** Every variant and variant-set name, for the message that refuses an unknown one. */
  readonly variantNames: readonly string[];
}

/**
 * What a world's legal chaos (emulator/chaos/, switched on by the world option `chaos`) decides
 * where the pipeline and the surfaces ask it; a world without chaos has none, and costs nothing.
 * Every decision is drawn from the chaos seed, the world's key and what is asked about.
 */
export interface ChaosHooks {
  /**
   * The pipeline (app.ts), once the request's world and route are known, before anything is
   * authenticated, counted or changed: either resets the connection (nothing happens) or calls
   * `go` for the rest of the pipeline, at once or after the request's latency.
   */
  admit(req: IncomingMessage, res: ServerResponse, operation: string, surface: string, params: Readonly<Record<string, string>>, go: () => void): void;
  /** Around a handler's synchronous part (app.ts): the exchange the surfaces' draws are recorded on. */
  enter(res: ServerResponse): void;
  leave(): void;
  /** The send step (send.ts): the body with this exchange's extra fields, where the spec leaves objects open. */
  shapeBody<T>(res: ServerResponse, body: T): T;
  /** The send step: the headers with this exchange's draws (`x-emulator-chaos`) and header-name case. */
  shapeHeaders(res: ServerResponse, headers: Record<string, string | number>): Record<string, string | number>;
  /** Whether a valid GPU create of this body is refused for capacity on this type (never on every type). */
  capacityRefused(body: Readonly<Record<string, unknown>>, gpuTypeId: string): boolean;
  /** Virtual time a job waits in the queue (queueing, cold start) before it may start. */
  queueDelayMs(jobId: string, sync: boolean): number;
  /** Virtual time a pod spends in PROVISIONING and STARTING beyond the emulator's own. */
  podTimes(podId: string): { provisioningMs: number; startingMs: number };
  /** The variants the world's draws add to `ids`, its explicit ones (never an alternative of one of them). */
  addVariants(ids: Set<VariantId>): void;
  /** The world's own draws, for the control surface. */
  describe(): Record<string, unknown>;
}
