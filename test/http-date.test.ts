import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseHttpDate } from '../src/core/http/date.js';

const date = suite('parseHttpDate (RFC 9110 section 5.6.7)');
const T = Date.UTC(1994, 10, 6, 8, 49, 37);

date('should read the three formats recipients must accept', () => {
  assert.is(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), T);
  assert.is(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), T);
  assert.is(parseHttpDate('Sun Nov  6 08:49:37 1994'), T);
});

date('should put two-digit years more than 50 years ahead in the past century', () => {
  const now = Date.UTC(2026, 0, 1);
  assert.is(new Date(parseHttpDate('Monday, 06-Nov-75 08:49:37 GMT', now)!).getUTCFullYear(), 2075);
  assert.is(new Date(parseHttpDate('Tuesday, 06-Nov-77 08:49:37 GMT', now)!).getUTCFullYear(), 1977);
});

date('should refuse anything that is not exactly one HTTP-date', () => {
  for (const bad of [null, '', 'garbage', '2026-01-01', '1767225600', 'Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 08:49:37 +0000', 'Sun, 31 Feb 1994 08:49:37 GMT', 'Sun, 06 Xyz 1994 08:49:37 GMT', 'Sun, 06 Nov 1994 25:00:00 GMT']) {
    assert.is(parseHttpDate(bad), undefined, String(bad));
  }
});

date.run();
