export type { Ability, Authenticator } from './types';
export { OPEN_ABILITY } from './types';
export type { ApiTokenOption, AuthOptions, ResolvedCaller } from './auth-options';
export { PUBLIC_ALL } from './auth-options';
export { createAuth, type AuthDependencies } from './create-auth';
export { hashAccessKey } from './hash-access-key';
export { extractBearerToken } from './extract-bearer-token';
export { draftReadContext } from './draft-read-context';
