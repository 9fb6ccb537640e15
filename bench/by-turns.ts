import { BY_TURNS_SLICES, BY_TURNS_SLICE_SECONDS, CONNECTIONS } from './bench-sizes.js';
import { type LoadResult, type PreparedRequest, runLoad } from './load.js';
import { pool, poolForLoad } from './requests.js';
import { SMOKE } from './smoke.js';

/**
 * A server and its floor loaded by turns in short slices, both processes up and the one not loaded
 * idle: the ratio of their rates, with the machine's drift taken out. The table's server and floor
 * rows are loaded some 20 s apart, and on the virtual machines seen here the machine's speed moved by
 * more than the distance of a ratio from its target in that time: one build's status read gave 0.85
 * and 0.68 of its floor in two runs half an hour apart (docs/decisions/0366).
 *
 * The slices run in the order server, floor, floor, server, and again: a drift that is steady over the
 * round weighs on both sides alike. Each side's rate is its expected answers over its slices' time.
 */
export interface ByTurns {
  serverPerSecond: number;
  floorPerSecond: number;
  ratio: number;
  /** Every counted slice of both sides: their answers other than the expected status, and what they sent. */
  slices: LoadResult[];
  /** Whether a side sent more requests than were made ahead for it, which would count replays. */
  ranOut: boolean;
}

/** One side of the round: where it listens, and its `i`th request, each a request of its own (i < 8 000 + the slices' pool). */
export interface Side {
  url: string;
  request: (i: number) => PreparedRequest;
}

/** Requests of a side's warm-up slice: more than a second of the fastest side seen sends, so none is sent twice. */
const WARM_UP_REQUESTS = 8_000;

export async function byTurns(server: Side, floor: Side, expect: number): Promise<ByTurns> {
  const slice = (url: string, requests: PreparedRequest[]) =>
    runLoad(url, requests, { connections: CONNECTIONS, seconds: BY_TURNS_SLICE_SECONDS, expect });
  // A warm-up slice each, one after the other and not counted; its rate sizes the side's requests,
  // all made before the first slice (signing them is the bench process's work, not the servers').
  const sides = [];
  for (const side of [server, floor]) {
    const warmUp = await slice(
      side.url,
      pool(WARM_UP_REQUESTS, (i) => side.request(i)),
    );
    const size = poolForLoad(warmUp.requestsPerSecond, BY_TURNS_SLICES * BY_TURNS_SLICE_SECONDS, 2_000);
    const requests = pool(size, (i) => side.request(WARM_UP_REQUESTS + i));
    sides.push({ side, pool: requests, used: 0, fastest: warmUp.requestsPerSecond, slices: [] as LoadResult[] });
  }
  let ranOut = false;
  for (let turn = 0; turn < BY_TURNS_SLICES; turn++) {
    for (const side of turn % 2 === 0 ? sides : [...sides].reverse()) {
      // A side whose warm-up ran slower than its slices (PostgreSQL's floor on a fresh database, whose
      // fourth slice of a run answered 979 replays 500) is given more before its next slice, outside
      // the timing: a replay answered 500 lowers the floor's rate and raises the ratio. A smoke run
      // prepares no more than its SMOKE_POOL (bench/smoke.ts).
      const want = poolForLoad(side.fastest, BY_TURNS_SLICE_SECONDS, CONNECTIONS) - (side.pool.length - side.used);
      if (want > 0 && !SMOKE) {
        const made = side.pool.length;
        side.pool.push(...pool(want, (i) => side.side.request(WARM_UP_REQUESTS + made + i)));
      }
      const left = side.pool.slice(side.used);
      const result = await slice(side.side.url, left);
      ranOut ||= result.sent > left.length;
      side.used += result.sent;
      side.fastest = Math.max(side.fastest, result.requestsPerSecond);
      side.slices.push(result);
    }
  }
  const [serverPerSecond, floorPerSecond] = sides.map(({ slices }) => {
    const total = (pick: (r: LoadResult) => number) => slices.reduce((sum, r) => sum + pick(r), 0);
    return total((r) => r.expected) / total((r) => r.seconds);
  }) as [number, number];
  return {
    serverPerSecond,
    floorPerSecond,
    ratio: serverPerSecond / floorPerSecond,
    slices: sides.flatMap((side) => side.slices),
    ranOut,
  };
}

/** The table's rows of the three by-turns rounds: each the ratio, with the two rates it is made of. */
export function byTurnsRows(
  rounds: { read: ByTurns[]; create: ByTurns[]; createPg: ByTurns[] },
  fmt: (values: number[], digits?: number) => string,
): [string, string, string][] {
  const row = (name: string, results: ByTurns[]): [string, string, string] => [
    `${name} over its floor, by turns (bench/by-turns.ts), ratio`,
    fmt(
      results.map((r) => r.ratio),
      2,
    ),
    `server ${fmt(results.map((r) => r.serverPerSecond))} and floor ${fmt(results.map((r) => r.floorPerSecond))} req/s, ` +
      `${BY_TURNS_SLICES} slices of ${BY_TURNS_SLICE_SECONDS} s each by turns in each run; target ≥ 0.8 (issue 44)`,
  ];
  return [
    row('Status read on SQLite', rounds.read),
    row('Create on SQLite', rounds.create),
    row('Create on PostgreSQL', rounds.createPg),
  ];
}
