import type { Histogram, MetricValueWithName, Registry } from 'prom-client';

/** The counts of one label set of a histogram: what an observation touches, and nothing else. */
export class HistogramSeries {
  /** Observations by the first bound they are at or under (the last place: over every bound); not cumulative. */
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(
    private readonly bounds: readonly number[],
    readonly labels: Readonly<Record<string, string>>,
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }

  /** The series in the exposition's terms: cumulative buckets by `le`, then the sum and the count. */
  values(name: string): MetricValueWithName<string>[] {
    const values: MetricValueWithName<string>[] = [];
    let below = 0;
    this.bounds.forEach((bound, i) => {
      below += this.counts[i]!;
      values.push({ metricName: `${name}_bucket`, labels: { le: bound, ...this.labels }, value: below });
    });
    values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', ...this.labels }, value: this.count });
    values.push({ metricName: `${name}_sum`, labels: { ...this.labels }, value: this.sum });
    values.push({ metricName: `${name}_count`, labels: { ...this.labels }, value: this.count });
    return values;
  }
}

/**
 * A Prometheus histogram whose label sets come from a fixed set (store methods, route patterns and
 * statuses), each kept as plain counts that its callers hold on to, and read by prom-client's registry
 * when the metrics are scraped, in the form prom-client's own Histogram gives. That Histogram checks the
 * label names and builds the label set's key on every observation, four times a status read; here a
 * caller that knows its label set once (a store method) observes into it directly, and one that does
 * not looks its key up in a Map (docs/decisions/0353).
 */
export class SeriesHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // The registry reads a metric through name, help, type, aggregator and get() alone.
    registry.registerMetric(this as unknown as Histogram);
  }

  /** The series of a label set, made on its first use; `key` is the set's own name (its values, joined). */
  seriesOf(key: string, labels: () => Record<string, string>): HistogramSeries {
    let series = this.series.get(key);
    if (series === undefined) {
      series = new HistogramSeries(this.bounds, labels());
      this.series.set(key, series);
    }
    return series;
  }

  get(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    aggregator: 'sum';
    values: MetricValueWithName<string>[];
  }> {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: [...this.series.values()].flatMap((s) => s.values(this.name)),
    });
  }

  reset(): void {
    this.series.clear();
  }
}
