import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { type HistogramSeries, SeriesHistogram } from './series-histogram.js';

/** What a batch run did (BatchRunResult's counts). */
export interface BatchRunCounts {
  executed: number;
  partial: number;
  rejected: number;
}

/** Answer times of API requests: from a millisecond (a read) to the 30 s a client may take to send. */
const REQUEST_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Store calls: a tenth of a millisecond (a cached SQLite read) to seconds (a chunk of a batch run). */
const STORE_BUCKETS_SECONDS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
];
/** Batch runs: an empty one takes milliseconds, 100 000 payments about a minute (bench/results.md). */
const BATCH_BUCKETS_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 900];

/**
 * The server's metrics in the Prometheus text format (prom-client), on a registry of its own: API
 * requests by route and status, store calls by method, batch runs, SCA outcomes, and the process
 * (CPU, memory, event-loop delay, garbage collection, handles). Each histogram's `_count` counts the
 * events it times. Label values come from fixed sets (route patterns, status codes, store methods,
 * outcome names), never from request data, so the series stay few.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: SeriesHistogram;
  private readonly storeCalls: SeriesHistogram;
  private readonly batchRuns: Histogram<never>;
  private readonly batchPayments: Counter<'outcome'>;
  private readonly scaOutcomes: Counter<'outcome'>;
  private readonly scenarioAnswers: Counter<'kind' | 'status'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.requests = new SeriesHistogram(
      'psd2_http_request_duration_seconds',
      'API requests answered, by method, route pattern and status: time from arrival to the last byte sent',
      REQUEST_BUCKETS_SECONDS,
      this.registry,
    );
    this.storeCalls = new SeriesHistogram(
      'psd2_store_call_duration_seconds',
      'Calls to the database store, by Store method and outcome (ok or error)',
      STORE_BUCKETS_SECONDS,
      this.registry,
    );
    this.batchRuns = new Histogram({
      name: 'psd2_batch_run_duration_seconds',
      help: 'Batch runs (a slot of one bank, or a run now), by duration',
      buckets: BATCH_BUCKETS_SECONDS,
      registers,
    });
    this.batchPayments = new Counter({
      name: 'psd2_batch_payments_total',
      help: 'Payments batch runs have taken: executed (ACSC), partial (bulk, PART) or rejected (RJCT)',
      labelNames: ['outcome'],
      registers,
    });
    this.scaOutcomes = new Counter({
      name: 'psd2_sca_outcomes_total',
      help: "SCA pages that end a PSU's visit, by what they say (approved, declined, wrong-psu, too-many-attempts, psu-locked, link-expired, ...)",
      labelNames: ['outcome'],
      registers,
    });
    this.scenarioAnswers = new Counter({
      name: 'psd2_sandbox_scenario_answers_total',
      help: "Answers a sandbox scenario a TPP's test armed gave (bank-throttled, bank-maintenance, bank-slow, bank-error), by status: counted here, not in psd2_http_request_duration_seconds",
      labelNames: ['kind', 'status'],
      registers,
    });
    // Every outcome is present from the start, so that a rate over it is defined before the first one.
    for (const outcome of ['executed', 'partial', 'rejected']) this.batchPayments.inc({ outcome }, 0);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests
      .seriesOf(`${method} ${status} ${route}`, () => ({ method, route, status: String(status) }))
      .observe(seconds);
  }

  /**
   * What times one Store method's calls, made once when the store is wrapped: each series is found
   * on its first observation and kept, so that a method never called shows no series.
   */
  storeCallTimer(method: string): (seconds: number, failed: boolean) => void {
    let ok: HistogramSeries | undefined;
    let error: HistogramSeries | undefined;
    const series = (outcome: string) => this.storeCalls.seriesOf(`${method} ${outcome}`, () => ({ method, outcome }));
    return (seconds, failed) => {
      if (failed) (error ??= series('error')).observe(seconds);
      else (ok ??= series('ok')).observe(seconds);
    };
  }

  observeBatchRun(counts: BatchRunCounts, seconds: number): void {
    this.batchRuns.observe(seconds);
    this.batchPayments.inc({ outcome: 'executed' }, counts.executed);
    this.batchPayments.inc({ outcome: 'partial' }, counts.partial);
    this.batchPayments.inc({ outcome: 'rejected' }, counts.rejected);
  }

  observeScenarioAnswer(kind: string, status: number): void {
    this.scenarioAnswers.inc({ kind, status: String(status) });
  }

  observeScaOutcome(outcome: string): void {
    this.scaOutcomes.inc({ outcome });
  }
}
