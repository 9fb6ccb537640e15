import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  LIFECYCLE,
  type MoveName,
  isDueNow,
  mayMove,
  statusAfterApproval,
} from '../../src/domain/payment-lifecycle.js';
import { FINAL_STATUSES, TRANSACTION_STATUSES, type TransactionStatus } from '../../src/domain/transaction-status.js';

/** The rows of docs/batch.md's lifecycle table: move, from, to. */
function documentedMoves(): Map<string, { from: string[]; to: string[] }> {
  const text = readFileSync('docs/batch.md', 'utf8');
  const section = text.slice(text.indexOf('## Lifecycle'), text.indexOf('## When'));
  const rows = new Map<string, { from: string[]; to: string[] }>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || cells[1] === 'Move' || cells[1]!.startsWith('-')) continue;
    rows.set(cells[1]!, { from: cells[2]!.split(', '), to: cells[3]!.split(', ') });
  }
  return rows;
}

describe('payment lifecycle (docs/batch.md, "Lifecycle")', () => {
  it('is the table docs/batch.md shows, move for move', () => {
    const documented = documentedMoves();
    assert.deepEqual([...documented.keys()].sort(), Object.keys(LIFECYCLE).sort());
    for (const [name, move] of Object.entries(LIFECYCLE)) {
      assert.deepEqual(documented.get(name), { from: [...move.from], to: [...move.to] }, name);
    }
  });

  it('moves only between statuses of the specification, never back to RCVD, and never out of a final status', () => {
    for (const [name, move] of Object.entries(LIFECYCLE)) {
      for (const status of [...move.from, ...move.to]) assert.ok(TRANSACTION_STATUSES.includes(status), name);
      assert.ok(!(move.to as readonly string[]).includes('RCVD'), `${name} returns to RCVD`);
      for (const from of move.from) assert.ok(!FINAL_STATUSES.has(from), `${name} leaves final ${from}`);
    }
  });

  it('reaches every final status the bank sets, and each from RCVD', () => {
    const reached = new Set<TransactionStatus>(['RCVD']);
    for (let grew = true; grew;) {
      grew = false;
      for (const move of Object.values(LIFECYCLE))
        if (move.from.some((s) => reached.has(s)))
          for (const to of move.to) if (!reached.has(to)) grew = reached.add(to) !== undefined;
    }
    for (const final of FINAL_STATUSES) assert.ok(reached.has(final), final);
  });

  it('answers whether a move is made from one status to another', () => {
    const cases: [MoveName, TransactionStatus, TransactionStatus, boolean][] = [
      ['approve', 'RCVD', 'ACTC', true],
      ['approve', 'ACTC', 'PDNG', false],
      ['cancel', 'PDNG', 'CANC', true],
      ['cancel', 'ACSP', 'CANC', false],
      ['take', 'ACTC', 'ACSP', true],
      ['settle', 'ACTC', 'ACSC', false],
      ['settle', 'ACSP', 'PART', true],
    ];
    for (const [name, from, to, expected] of cases) {
      const move: { to: readonly string[] } = LIFECYCLE[name];
      assert.equal(mayMove(name, from) && move.to.includes(to), expected, `${name} ${from}→${to}`);
    }
    assert.equal(mayMove('approve', 'RCVD'), true);
    assert.equal(mayMove('approve', 'CANC'), false);
  });

  it('approves a payment due today as ACTC, executed at once if instant, and one for a later date as PDNG, which waits', () => {
    const now = new Date('2026-11-29T22:30:00Z'); // 23:30 in Oslo: still the 29th there
    assert.equal(statusAfterApproval(undefined, now), 'ACTC');
    assert.equal(statusAfterApproval('2026-11-29', now), 'ACTC');
    assert.equal(statusAfterApproval('2026-11-30', now), 'PDNG');
    assert.equal(isDueNow('ACTC'), true);
    assert.equal(isDueNow('PDNG'), false);
  });
});
