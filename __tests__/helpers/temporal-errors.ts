/**
 * Values of the date and time attributes (`day`, `at`, `when`, `stamp` in the test models) that Strapi cannot
 * parse, with the message of its 400 (details empty): one table for the validator's unit test and the HTTP test.
 */
export const UNPARSEABLE_TEMPORALS: [string, Record<string, unknown>, string][] = [
  ['date', { day: '2024-02-30' }, 'Invalid date'],
  ['date format', { day: 20240101 }, 'Invalid format, expected yyyy-MM-dd'],
  ['time', { at: '25:00' }, 'Invalid time format, expected HH:mm:ss.SSS'],
  ['datetime', { when: 'yesterday' }, 'Invalid format, expected a timestamp or an ISO date'],
  ['timestamp', { stamp: '2024-13-01T00:00:00Z' }, 'Invalid format, expected a timestamp or an ISO date'],
];
