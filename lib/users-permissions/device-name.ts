/** Browsers by the token their User-Agent carries; the first match wins (Edge and Opera also say "Chrome"). */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** Operating systems, in the same way (iOS and Android before macOS and Linux, whose tokens they also carry). */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** User-Agents longer than this are not read (a header of hostile size costs nothing). */
const MAX_USER_AGENT = 512;

const first = (ua: string, table: readonly (readonly [RegExp, string])[]): string | undefined => table.find(([re]) => re.test(ua))?.[1];

/**
 * The device name a session shows in `GET /auth/sessions`, as Strapi derives it from the login's User-Agent:
 * "Chrome on macOS", "Safari on iOS", "Firefox" (system unknown); undefined when no known browser is named
 * (`curl/8`, `node`, none), so the entry has no `deviceName`.
 *
 * @example
 * deviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'); // 'Chrome on macOS'
 */
export function deviceName(userAgent: string | undefined): string | undefined {
  if (typeof userAgent !== 'string' || userAgent.length > MAX_USER_AGENT) return undefined;
  const browser = first(userAgent, BROWSERS);
  if (!browser) return undefined;
  const system = first(userAgent, SYSTEMS);
  return system ? `${browser} on ${system}` : browser;
}
