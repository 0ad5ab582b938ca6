// The content locale localized types are read and written in, chosen in the app bar (kept in localStorage).
const KEY = 'content-router-admin.locale';
export const LOCALE_CHANGE = 'content-router-admin.locale-change';

let locale: string | null = localStorage.getItem(KEY);

export const getContentLocale = (): string | null => locale;

export function setContentLocale(code: string): void {
  locale = code;
  localStorage.setItem(KEY, code);
  window.dispatchEvent(new Event(LOCALE_CHANGE));
}
