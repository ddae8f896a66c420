// The decision rule of bench/realistic (bench/support/measure.ts): when the rounds of a load decide its
// goal, and when more rounds are run.
import { describe, expect, it } from 'vitest';
import { decided, medianInterval } from '../bench/support/measure.js';

describe('medianInterval', () => {
  it('is the widest-inside pair of order statistics covering the median at the confidence asked', () => {
    const ranks = (n: number) => Array.from({ length: n }, (_, i) => n - i); // given in any order
    expect(medianInterval(ranks(5))).toEqual({ low: 1, high: 5, confidence: 30 / 32 });
    expect(medianInterval(ranks(9))).toEqual({ low: 2, high: 8, confidence: 1 - 20 / 512 });
    expect(medianInterval(ranks(11))).toEqual({ low: 3, high: 9, confidence: 1 - 134 / 2048 });
    // A lower confidence narrows it.
    expect(medianInterval(ranks(9), 0.8)).toMatchObject({ low: 3, high: 7 });
  });
});

describe('decided', () => {
  it('is met or missed only when the interval lies wholly on one side of the goal', () => {
    expect(decided([0.95, 0.75, 0.88, 0.77, 0.9], 0.85)).toBeUndefined();
    expect(decided([0.71, 0.7, 0.78, 0.69, 0.74], 0.9)).toBe('missed');
    expect(decided([1.02, 0.9, 1.07, 1.09, 0.95], 0.85)).toBe('met');
    // On the goal counts as meeting it.
    expect(decided([0.85, 0.9, 0.92, 0.88, 0.86], 0.85)).toBe('met');
  });

  it('decides nothing from rounds too few for the confidence asked', () => {
    // Three rounds cover the median with 75% only, however far from the goal.
    expect(decided([0.5, 0.52, 0.51], 0.9)).toBeUndefined();
    expect(decided([0.5, 0.52, 0.51], 0.9, 0.75)).toBe('missed');
  });
});
