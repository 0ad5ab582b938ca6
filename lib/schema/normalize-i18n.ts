import { ConfigurationError } from '../errors';
import type { I18nOptions, I18nSettings } from './types';

const LOCALE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * The name Strapi's admin would show for a locale the host did not name: the English name of the language
 * (`Intl.DisplayNames`) and the code, `French (fr)`, as Strapi's locale list writes them; the bare code when the
 * runtime has no name for it.
 */
function displayName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(code);
    return name ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

function invalid(message: string): never {
  throw new ConfigurationError('CR_INVALID_LOCALES', message);
}

function entryOf(entry: unknown, i: number): { code: string; name: string } {
  const raw = typeof entry === 'string' ? { code: entry } : entry;
  if (typeof raw !== 'object' || raw === null) invalid(`i18n.locales[${i}] must be a locale code or { code, name }`);
  const { code, name } = raw as { code?: unknown; name?: unknown };
  if (typeof code !== 'string' || !LOCALE_CODE.test(code)) invalid(`i18n.locales[${i}] must be a locale code (e.g. "en", "fr-CA")`);
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) invalid(`i18n.locales[${i}].name must be a non-empty string`);
  return { code, name: (name as string | undefined) ?? displayName(code) };
}

/**
 * The `i18n` option -> the registry's settings: locales as codes or `{ code, name }` (default `['en']`), the
 * default locale (default: the first). Throws `CR_INVALID_LOCALES`.
 *
 * @example
 * normalizeI18n({ locales: ['en', { code: 'fr', name: 'Français' }] });
 * // { locales: ['en', 'fr'], defaultLocale: 'en', names: { en: 'English (en)', fr: 'Français' } }
 */
export function normalizeI18n(i18n: I18nOptions | undefined): I18nSettings {
  const given: unknown = i18n?.locales ?? ['en'];
  if (!Array.isArray(given) || given.length === 0) invalid('i18n.locales must be a non-empty array of locale codes');
  const entries = (given as unknown[]).map(entryOf);
  const locales = entries.map((e) => e.code);
  const duplicate = locales.find((code, i) => locales.indexOf(code) !== i);
  if (duplicate !== undefined) invalid(`i18n.locales lists "${duplicate}" twice`);
  const defaultLocale = i18n?.defaultLocale ?? locales[0]!;
  if (!locales.includes(defaultLocale)) invalid(`i18n.defaultLocale "${defaultLocale}" is not one of the locales`);
  const names = Object.freeze(Object.fromEntries(entries.map((e) => [e.code, e.name])) as Record<string, string>);
  return Object.freeze({ locales: Object.freeze(locales), defaultLocale, names });
}
