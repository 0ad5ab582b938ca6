/**
 * Browsers by the token their User-Agent carries, most specific first: Edge, Opera and the Chromium forks also say
 * "Chrome", and Chrome also says "Safari" (Strapi's `@strapi/utils` user-agent heuristics).
 */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:YaBrowser|Yowser)\//, 'Yandex Browser'],
  [/\bBrave\//, 'Brave'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];

/** Operating systems, in the same way (iOS before macOS: an iPhone's User-Agent also says "Mac OS X"). */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows NT\b/, 'Windows'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/** Only the start of a User-Agent is read (the tokens come early): a header of hostile size costs nothing more. */
const MAX_USER_AGENT = 1024;

const first = (ua: string, table: readonly (readonly [RegExp, string])[]): string | undefined => table.find(([re]) => re.test(ua))?.[1];

/**
 * The device name a session shows in `GET /auth/sessions`, as Strapi derives it from the login's User-Agent:
 * "Chrome on macOS", "Safari on iOS"; the browser or the system alone when only one is known ("Firefox",
 * "Windows"); undefined when neither is (`curl/8`, `node`, none), so the entry has no `deviceName`.
 *
 * @example
 * deviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'); // 'Chrome on macOS'
 */
export function deviceName(userAgent: string | undefined): string | undefined {
  if (typeof userAgent !== 'string' || userAgent === '') return undefined;
  const ua = userAgent.slice(0, MAX_USER_AGENT);
  const browser = first(ua, BROWSERS);
  const system = first(ua, SYSTEMS);
  return browser && system ? `${browser} on ${system}` : (browser ?? system);
}
