import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executionDateProblem } from '../../src/domain/execution-date.js';
import { MAX_EXECUTION_DAYS_AHEAD } from '../../src/domain/limits.js';

const TODAY = '2026-11-21';
const PATH = '$.requestedExecutionDate';

describe('executionDateProblem', () => {
  it('accepts today', () => {
    assert.equal(executionDateProblem(TODAY, TODAY, PATH), undefined);
  });

  it('refuses yesterday with EXECUTION_DATE_INVALID at the given path', () => {
    const problem = executionDateProblem('2026-11-20', TODAY, PATH);
    assert.equal(problem?.code, 'EXECUTION_DATE_INVALID');
    assert.equal(problem?.path, PATH);
    assert.match(problem?.text ?? '', /in the past.*2026-11-21/);
  });

  it('refuses a date years in the past', () => {
    assert.equal(executionDateProblem('2019-01-01', TODAY, PATH)?.code, 'EXECUTION_DATE_INVALID');
  });

  it('accepts today + 365 days and refuses today + 366 days', () => {
    assert.equal(MAX_EXECUTION_DAYS_AHEAD, 365);
    assert.equal(executionDateProblem('2027-11-21', TODAY, PATH), undefined);
    const problem = executionDateProblem('2027-11-22', TODAY, PATH);
    assert.equal(problem?.code, 'EXECUTION_DATE_INVALID');
    assert.equal(problem?.path, PATH);
    assert.match(problem?.text ?? '', /more than 365 days ahead.*2027-11-21/);
  });

  it('counts 365 days, not a year, across a leap day', () => {
    // From 2027-03-01, 365 days ahead is 2028-02-29 (2028 is a leap year).
    assert.equal(executionDateProblem('2028-02-29', '2027-03-01', PATH), undefined);
    assert.equal(executionDateProblem('2028-03-01', '2027-03-01', PATH)?.code, 'EXECUTION_DATE_INVALID');
  });

  it('uses the path it is given', () => {
    assert.equal(
      executionDateProblem('2020-01-01', TODAY, '$.payments[0].requestedExecutionDate')?.path,
      '$.payments[0].requestedExecutionDate',
    );
  });
});
