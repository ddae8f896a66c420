// The decision rule of bench/realistic (bench/support/measure.ts): when the rounds of a load decide its
// goal, and when more rounds are run.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decided, medianInterval } from '../bench/support/measure.js';

const interval = suite('medianInterval: order statistics covering the median');

interval('should be the widest-inside pair covering the median at the confidence asked', () => {
  const ranks = (n: number) => Array.from({ length: n }, (_, i) => n - i); // given in any order
  assert.equal(medianInterval(ranks(5)), { low: 1, high: 5, confidence: 30 / 32 });
  assert.equal(medianInterval(ranks(9)), { low: 2, high: 8, confidence: 1 - 20 / 512 });
  assert.equal(medianInterval(ranks(11)), { low: 3, high: 9, confidence: 1 - 134 / 2048 });
  // A lower confidence narrows it.
  const narrower = medianInterval(ranks(9), 0.8);
  assert.equal([narrower.low, narrower.high], [3, 7]);
});

const decision = suite('decided: met, missed, or more rounds');

decision('should be met or missed only when the interval lies wholly on one side of the goal', () => {
  assert.is(decided([0.95, 0.75, 0.88, 0.77, 0.9], 0.85), undefined);
  assert.is(decided([0.71, 0.7, 0.78, 0.69, 0.74], 0.9), 'missed');
  assert.is(decided([1.02, 0.9, 1.07, 1.09, 0.95], 0.85), 'met');
  // On the goal counts as meeting it.
  assert.is(decided([0.85, 0.9, 0.92, 0.88, 0.86], 0.85), 'met');
});

decision('should decide nothing from rounds too few for the confidence asked', () => {
  // Three rounds cover the median with 75% only, however far from the goal.
  assert.is(decided([0.5, 0.52, 0.51], 0.9), undefined);
  assert.is(decided([0.5, 0.52, 0.51], 0.9, 0.75), 'missed');
});

interval.run();
decision.run();
