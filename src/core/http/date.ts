// HTTP-dates (RFC 9110 section 5.6.7): IMF-fixdate formatting, and parsing of it and the two obsolete formats.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850 = /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/**
 * The time (epoch ms) of an HTTP-date field value, or undefined when it is not exactly one valid
 * HTTP-date (a list, an ISO date, a local time...): RFC 9110 section 13.1.3 and 13.1.4 say such a
 * precondition is ignored. The two-digit years of RFC 850 dates more than 50 years ahead are taken in
 * the past century, as section 5.6.7 requires; asctime dates are UTC.
 *
 * @example
 * parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'); // 784111777000
 * parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'); // 784111777000
 * parseHttpDate('Sun Nov  6 08:49:37 1994'); // 784111777000
 * parseHttpDate('2026-01-01'); // undefined
 */
export function parseHttpDate(value: string | null, now?: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  let m = IMF_FIXDATE.exec(text);
  if (m) return build(+m[3]!, m[2]!, +m[1]!, +m[4]!, +m[5]!, +m[6]!);
  m = RFC850.exec(text);
  if (m) {
    // Only the obsolete two-digit year needs the clock (read here, not on every call).
    const thisYear = new Date(now ?? Date.now()).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + +m[3]!;
    if (year > thisYear + 50) year -= 100;
    return build(year, m[2]!, +m[1]!, +m[4]!, +m[5]!, +m[6]!);
  }
  m = ASCTIME.exec(text);
  if (m) return build(+m[6]!, m[1]!, +m[2]!.trim(), +m[3]!, +m[4]!, +m[5]!);
  return undefined;
}

function build(year: number, monthName: string, day: number, hour: number, minute: number, second: number): number | undefined {
  const month = MONTHS.indexOf(monthName);
  if (month < 0 || day < 1 || hour > 23 || minute > 59 || second > 60) return undefined;
  const time = Date.UTC(year, month, day, hour, minute, Math.min(second, 59));
  // Reject dates such as 31 Feb that Date.UTC would roll over into the next month.
  return new Date(time).getUTCDate() === day ? time : undefined;
}

/** The last few formatted seconds: Date and Expires repeat the same few values many times a second. */
const formatted = new Map<number, string>();

/**
 * The IMF-fixdate of a time (epoch ms, sub-second part dropped), as `Date#toUTCString` gives it,
 * remembered for the handful of seconds a busy server formats over and over.
 *
 * @example
 * httpDate(784111777000); // 'Sun, 06 Nov 1994 08:49:37 GMT'
 */
export function httpDate(time: number): string {
  const second = Math.floor(time / 1000);
  let text = formatted.get(second);
  if (text === undefined) {
    text = new Date(second * 1000).toUTCString();
    if (formatted.size >= 64) formatted.clear();
    formatted.set(second, text);
  }
  return text;
}
