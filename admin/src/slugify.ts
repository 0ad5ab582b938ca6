/**
 * A uid from its target field's text, as Strapi's admin makes one: accents dropped, lower case, every run of other
 * characters one dash, no leading or trailing dash ("Hello, Wörld!" -> "hello-world").
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[æ]/gi, 'ae')
    .replace(/[ø]/gi, 'o')
    .toLowerCase()
    .replace(/[^a-z0-9_~.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}
