export { loadStrapiProject, type StrapiProject, type LoadStrapiProjectOptions } from './load-strapi-project';
export type { ProjectNote } from './project-note';
export { createStrapiEnv, type StrapiEnv, type EnvVariables } from './strapi-env';
