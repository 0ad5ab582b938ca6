import type { Engine } from '../engine';
import type { I18nOptions } from '../schema';
import { jsonlStage, readArchive, readJsonLines } from './archive-reader';
import { readKept } from './kept-lines';

/** Collects Strapi's locales (`plugin::i18n.locale` entities) and its default locale (the core store's entry). */
class LocalesFound {
  private readonly locales: { code: string; name?: string }[] = [];
  private readonly used = new Set<string>();
  private defaultLocale: string | undefined;

  see(stage: string, value: unknown): void {
    const line = value as { type?: unknown; data?: { code?: unknown; name?: unknown }; value?: { key?: unknown; value?: unknown } };
    if (stage === 'entities' && line.type === 'plugin::i18n.locale' && typeof line.data?.code === 'string') {
      this.locales.push({ code: line.data.code, ...(typeof line.data.name === 'string' ? { name: line.data.name } : {}) });
    }
    const locale = (line.data as { locale?: unknown } | undefined)?.locale;
    if (stage === 'entities' && typeof line.type === 'string' && line.type.startsWith('api::') && typeof locale === 'string') this.used.add(locale);
    if (stage === 'configuration' && line.type === 'core-store' && line.value?.key === 'plugin_i18n_default_locale') {
      this.defaultLocale = storedString(line.value.value);
    }
  }

  /**
   * The i18n option, or undefined when no locale was found: Strapi's locales, then those that documents are
   * written in without being in Strapi's list (Strapi 5 stores a version in any locale a write names, and serves it).
   */
  result(): I18nOptions | undefined {
    const codes = this.locales.map((l) => l.code);
    const unlisted = [...this.used].filter((code) => !codes.includes(code)).sort();
    if (codes.length + unlisted.length === 0) return undefined;
    const defaultLocale = this.defaultLocale !== undefined && codes.includes(this.defaultLocale) ? this.defaultLocale : (codes[0] ?? unlisted[0]);
    return { locales: [...this.locales, ...unlisted], defaultLocale };
  }
}

/** A core-store string: its `value` as stored (JSON text, `"\"en\""`) or as exported (`"en"`). */
function storedString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed = JSON.parse(value) as unknown;
    return typeof parsed === 'string' ? parsed : value;
  } catch {
    return value;
  }
}

/**
 * The locales a `strapi export` holds (its `plugin::i18n.locale` entities, with their names, then the other locales
 * its documents are in) and its default locale (the core store's `plugin_i18n_default_locale`), as the `i18n`
 * option; undefined when it has none.
 *
 * @example
 * const i18n = await readExportLocales('export.tar.gz'); // { locales: [{ code: 'en', name: 'English (en)' }, ...], defaultLocale: 'en' }
 */
export async function readExportLocales(file: string, options: { key?: string } = {}): Promise<I18nOptions | undefined> {
  const found = new LocalesFound();
  for await (const entry of readArchive(file, options)) {
    const stage = jsonlStage(entry.name);
    if (stage !== 'entities' && stage !== 'configuration') continue;
    for await (const { value } of readJsonLines(entry)) found.see(stage, value);
  }
  return found.result();
}

/**
 * The same, from what an import kept aside in a started engine (a store a `strapi export` was imported into).
 *
 * @example
 * const i18n = await readKeptLocales(engine);
 */
export async function readKeptLocales(engine: Engine): Promise<I18nOptions | undefined> {
  const found = new LocalesFound();
  for (const stage of ['entities', 'configuration']) {
    for await (const value of readKept(engine, stage)) found.see(stage, value);
  }
  return found.result();
}
