import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchRunner } from '../../src/services/batch-runner.js';
import { Banks } from '../../src/services/banks.js';
import type { Store } from '../../src/store/store.js';

const runner = new BatchRunner({} as Store, {} as Banks, {} as never);

describe('batch schedule', () => {
  it('runs at 06:00, 09:00, 12:00, 15:00 and 18:00 Norwegian time: in winter one hour after UTC', () => {
    let slot = new Date('2026-11-23T00:00:00Z');
    const slots: string[] = [];
    for (let i = 0; i < 6; i++) {
      slot = runner.nextSlot(slot);
      slots.push(slot.toISOString());
    }
    assert.deepEqual(slots, [
      '2026-11-23T05:00:00.000Z',
      '2026-11-23T08:00:00.000Z',
      '2026-11-23T11:00:00.000Z',
      '2026-11-23T14:00:00.000Z',
      '2026-11-23T17:00:00.000Z',
      '2026-11-24T05:00:00.000Z',
    ]);
  });

  it('follows summer time across the switch (06:00 is 04:00 UTC after 28 March 2027)', () => {
    assert.equal(runner.nextSlot(new Date('2027-03-27T18:00:00Z')).toISOString(), '2027-03-28T04:00:00.000Z');
  });

  it('takes other times of day', () => {
    const other = new BatchRunner({} as Store, {} as Banks, {} as never, ['07:30', '13:45']);
    assert.equal(other.nextSlot(new Date('2026-11-23T07:00:00Z')).toISOString(), '2026-11-23T12:45:00.000Z');
  });

  it('runs a time the spring change skips when the clocks change, and one the autumn change shows twice once', () => {
    const night = new BatchRunner({} as Store, {} as Banks, {} as never, ['02:30']);
    // 2027-03-28: 02:00 becomes 03:00 at 01:00 UTC. 2026-10-25: 03:00 becomes 02:00 at 01:00 UTC.
    assert.equal(night.nextSlot(new Date('2027-03-27T12:00:00Z')).toISOString(), '2027-03-28T01:00:00.000Z');
    assert.equal(night.nextSlot(new Date('2026-10-24T12:00:00Z')).toISOString(), '2026-10-25T00:30:00.000Z');
    assert.equal(night.nextSlot(new Date('2026-10-25T00:30:00Z')).toISOString(), '2026-10-26T01:30:00.000Z');
  });

  it('wakes at the start of each Norwegian day, for the standing orders, when it comes before the next slot', () => {
    assert.equal(runner.nextWake(new Date('2026-11-30T18:00:00Z')).toISOString(), '2026-11-30T23:00:00.000Z');
    assert.equal(runner.nextWake(new Date('2026-11-30T23:00:00Z')).toISOString(), '2026-12-01T05:00:00.000Z');
    assert.equal(runner.nextWake(new Date('2027-07-01T17:00:00Z')).toISOString(), '2027-07-01T22:00:00.000Z');
  });
});

describe('the sandbox clock', () => {
  it('moves forward and not back, for the bank of the TPP that moves it', async () => {
    const offsets = new Map<string, bigint>();
    const store = {
      readClockOffset: async (bank: string) => offsets.get(bank) ?? 0n,
      writeClockOffset: async (bank: string, offset: bigint) => {
        offsets.set(bank, offset);
        return true;
      },
    } as unknown as Store;
    const banks = new Banks(store, 'sandbox');
    const target = new Date(Date.now() + 86_400_000);
    await banks.advance('PSDNO-FSA-A', target);
    assert.ok(Math.abs((await banks.now('PSDNO-FSA-A')).getTime() - target.getTime()) < 1000);
    assert.ok(Math.abs((await banks.now('PSDNO-FSA-B')).getTime() - Date.now()) < 1000, "another TPP's clock stays");
    assert.deepEqual([...offsets.keys()], ['PSDNO-FSA-A']);
    await assert.rejects(banks.advance('PSDNO-FSA-A', new Date(Date.now())), /only moves forward/);
  });

  it('takes an offset read with a payment in the sandbox, and ignores one in production', () => {
    const twoHours = 7_200_000n;
    assert.ok(
      Math.abs(new Banks({} as Store, 'sandbox').clockAt(twoHours).now().getTime() - (Date.now() + 7_200_000)) < 1000,
    );
    assert.ok(Math.abs(new Banks({} as Store, 'production').clockAt(twoHours).now().getTime() - Date.now()) < 1000);
  });

  it('is the wall clock, unmoved, in production', async () => {
    const banks = new Banks({} as Store, 'production');
    assert.equal(banks.of('PSDNO-FSA-A'), banks.of('PSDNO-FSA-B'));
    assert.ok(Math.abs((await banks.now('PSDNO-FSA-A')).getTime() - Date.now()) < 1000);
  });
});
