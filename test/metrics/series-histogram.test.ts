import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from '../../src/metrics/series-histogram.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
/** Values on bounds, between them, under the first and over the last, for two label sets. */
const OBSERVATIONS: [string, string, number][] = [
  ['GET', '200', 0.0005],
  ['GET', '200', 0.001],
  ['GET', '200', 0.05],
  ['GET', '200', 7],
  ['POST', '201', 0.1],
  ['POST', '201', 0.1000001],
];

describe('SeriesHistogram', () => {
  it("scrapes as prom-client's own Histogram of the same observations, line for line", async () => {
    const theirs = new Registry();
    const histogram = new Histogram({
      name: 'h_seconds',
      help: 'help "text"',
      labelNames: ['method', 'status'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const ours = new Registry();
    const series = new SeriesHistogram('h_seconds', 'help "text"', BOUNDS, ours);
    for (const [method, status, value] of OBSERVATIONS) {
      histogram.observe({ method, status }, value);
      series.seriesOf(`${method} ${status}`, () => ({ method, status })).observe(value);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
  });

  it('shows no series before its first observation, and one per label set after', async () => {
    const registry = new Registry();
    const series = new SeriesHistogram('h_seconds', 'help', BOUNDS, registry);
    assert.deepEqual((await series.get()).values, []);
    const get = series.seriesOf('GET', () => ({ method: 'GET' }));
    assert.equal(
      series.seriesOf('GET', () => assert.fail('made twice')),
      get,
    );
    get.observe(0.5);
    const counts = (await series.get()).values.filter((v) => v.metricName === 'h_seconds_count');
    assert.deepEqual(counts, [{ metricName: 'h_seconds_count', labels: { method: 'GET' }, value: 1 }]);
  });
});
