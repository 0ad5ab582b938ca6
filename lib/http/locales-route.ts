import type { Router } from 'express';
import { v5 as uuidv5 } from 'uuid';
import { I18N_LIST_LOCALES } from '../auth/check-actions';
import { ForbiddenError } from '../errors';
import type { Registry } from '../schema';
import { methodNotAllowed } from './error-handler';
import { getAbility } from './request-context';

/** Namespace of the locales' documentIds: a locale's documentId is the same on every start and every instance. */
const LOCALE_NAMESPACE = '0b7c6f55-9a41-4c55-8f0e-2d1c3a9b6e41';

/** One locale as Strapi's i18n plugin answers it. */
export interface LocaleEntry {
  id: number;
  documentId: string;
  name: string;
  code: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
  isDefault: boolean;
}

/**
 * The configured locales as Strapi's i18n plugin lists them: ids 1..n in the configured order, a documentId derived
 * from the code (UUID v5), the display name, and the router's start-up time as `createdAt`, `updatedAt` and
 * `publishedAt` (locales are configuration here, not stored rows; Strapi's locale type has no draft & publish).
 *
 * @example
 * localeEntries(registry, new Date())[0]; // { id: 1, code: 'en', name: 'English (en)', isDefault: true, ... }
 */
export function localeEntries(registry: Registry, startedAt: Date): LocaleEntry[] {
  const at = startedAt.toISOString();
  const { locales, defaultLocale, names } = registry.i18n;
  return locales.map((code, i) => ({
    id: i + 1,
    documentId: uuidv5(code, LOCALE_NAMESPACE),
    name: names[code] ?? code,
    code,
    createdAt: at,
    updatedAt: at,
    publishedAt: at,
    isDefault: code === defaultLocale,
  }));
}

/**
 * `GET /i18n/locales` (the i18n plugin's Content API route): a bare JSON array (no `data` envelope), for callers
 * granted `plugin::i18n.locales.listLocales`; 403 otherwise.
 *
 * @example
 * localesRoute(registry, router); // before the content routes: a collection type named "i18n" does not shadow it
 */
export function localesRoute(registry: Registry, router: Router, startedAt = new Date()): void {
  const body = JSON.stringify(localeEntries(registry, startedAt));
  router
    .route('/i18n/locales')
    .get((req, res) => {
      if (!getAbility(req).can(I18N_LIST_LOCALES)) throw new ForbiddenError();
      res.status(200).type('application/json').send(body);
    })
    .all(methodNotAllowed(['GET']));
}
