// react-admin's auth provider over the users-permissions plugin: `POST /auth/local` (a JWT, and a refresh token in
// session mode), or an API token pasted once. What the caller may do comes from the model endpoint's permissions:
// react-admin hides the buttons of what `canAccess` refuses.
import type { AuthProvider } from 'react-admin';
import { request } from './api';
import { FILES, type ModelIndex } from './model';
import { forgetModel, loadModel } from './model-store';
import { clearSession, getSession, setSession } from './session';

export interface Credentials {
  username?: string;
  password?: string;
  token?: string;
}

/** react-admin's action names -> the Content API's actions (per content type, and for the media library). */
const CONTENT_ACTIONS: Record<string, 'find' | 'findOne' | 'create' | 'update' | 'delete' | 'publish'> = {
  list: 'find', show: 'findOne', create: 'create', edit: 'update', delete: 'delete', publish: 'publish',
};
const MEDIA_ACTIONS: Record<string, 'find' | 'findOne' | 'upload' | 'update' | 'destroy'> = {
  list: 'find', show: 'findOne', create: 'upload', edit: 'update', delete: 'destroy',
};

/** Whether the model lets the caller do `action` on `resource` (a content type's route, or the media library). */
export function can(model: ModelIndex, action: string, resource: string | undefined): boolean {
  if (!resource) return true;
  if (resource === FILES) {
    const key = MEDIA_ACTIONS[action];
    return key ? model.model.media[key] : false;
  }
  const ct = model.byRoute.get(resource);
  const key = CONTENT_ACTIONS[action];
  if (!ct || !key) return false;
  if (ct.kind === 'singleType' && action === 'edit') return ct.permissions.update || ct.permissions.find;
  return ct.permissions[key];
}

export const authProvider: AuthProvider = {
  async login({ username, password, token }: Credentials) {
    forgetModel();
    if (token) {
      setSession({ kind: 'token', token: token.trim() });
    } else {
      const answer = await request<{ jwt: string; refreshToken?: string }>('/auth/local', {
        method: 'POST',
        body: { identifier: username, password },
        anonymous: true,
      });
      setSession({ kind: 'jwt', jwt: answer.jwt, ...(answer.refreshToken ? { refreshToken: answer.refreshToken } : {}) });
    }
    try {
      await loadModel();
    } catch (error) {
      clearSession();
      throw error;
    }
  },
  async logout() {
    const session = getSession();
    if (session?.kind === 'jwt' && session.refreshToken) {
      await request('/auth/logout', { method: 'POST', body: { refreshToken: session.refreshToken } }).catch(() => undefined);
    }
    clearSession();
    forgetModel();
  },
  async checkAuth() {
    if (!getSession()) throw new Error('Log in');
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      clearSession();
      forgetModel();
      throw new Error('Your session has ended: log in again');
    }
  },
  async getIdentity() {
    if (!getSession()) return { id: 'anonymous' };
    const { model } = await loadModel();
    const caller = model.caller;
    if (caller?.kind === 'user') {
      const user = caller as { id: number; username: string; role?: { name: string } | null };
      return { id: user.id, fullName: `${user.username}${user.role ? ` (${user.role.name})` : ''}` };
    }
    if (caller?.kind === 'token') return { id: 'token', fullName: `API token (${String(caller.type)})` };
    if (caller?.kind === 'host') return { id: 'host', fullName: String(caller.subject ?? 'Signed in') };
    return { id: 'public', fullName: 'Public' };
  },
  async getPermissions() {
    return getSession() ? loadModel() : undefined;
  },
  async canAccess({ action, resource }) {
    return getSession() ? can(await loadModel(), action, resource) : false;
  },
};
