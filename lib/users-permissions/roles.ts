import { ApplicationError, NotFoundError, ValidationError } from '../errors';
import type { Registry } from '../schema';
import { actionsOfTree, AUTHENTICATED_DEFAULTS, permissionsTree, PUBLIC_DEFAULTS, type PermissionsTree } from './role-actions';
import type { PluginDocuments } from './plugin-store';
import type { UsersRoleOption } from './users-options';

type Row = Record<string, unknown>;

/** How long a role's grants read from storage are used before they are read again (other instances' changes). */
export const ROLE_CACHE_MS = 1000;

const DESCRIPTIONS: Record<string, string> = {
  authenticated: 'Default role given to authenticated user.',
  public: 'Default role given to unauthenticated user.',
};

/** The roles and their grants, stored as `plugin::users-permissions.role` documents. */
export interface RolesService {
  /** Creates the roles of the options that storage does not hold yet (by `type`); stored roles are kept as they are. */
  seed(publicActions: readonly string[], roles: Readonly<Record<string, UsersRoleOption>>): Promise<void>;
  /** The actions of the role whose documentId is given ([] when it is gone), cached {@link ROLE_CACHE_MS}. */
  actionsOf(roleDocumentId: string): Promise<readonly string[]>;
  /** The actions of the Public role, cached likewise. */
  publicActions(): Promise<readonly string[]>;
  /** `{ roles }` of `GET /users-permissions/roles`: each role with `nb_users`. */
  list(): Promise<Row[]>;
  /** `{ role }` of `GET /users-permissions/roles/:id`: the role with its permissions tree. */
  findOne(id: number): Promise<Row & { permissions: PermissionsTree }>;
  create(body: Record<string, unknown>): Promise<void>;
  update(id: number, body: Record<string, unknown>): Promise<void>;
  delete(id: number): Promise<void>;
  /** The stored row of the role of `type`. */
  byType(type: string): Promise<Row | undefined>;
}

const capitalized = (type: string): string => type.charAt(0).toUpperCase() + type.slice(1);

/** lodash's `snakeCase(deburr(toLower(name)))`, how Strapi derives a new role's `type` from its name. */
function typeOfName(name: string): string {
  const plain = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  return (plain.match(/[a-z0-9]+/g) ?? []).join('_');
}

const publicFields = ({ permissions, ...rest }: Row): Row => (void permissions, rest);

export function createRolesService(registry: Registry, roles: PluginDocuments, users: PluginDocuments, now: () => number = Date.now): RolesService {
  const cache = new Map<string, { at: number; actions: readonly string[] }>();
  const cached = async (key: string, load: () => Promise<Row | undefined>): Promise<readonly string[]> => {
    const hit = cache.get(key);
    if (hit && now() - hit.at < ROLE_CACHE_MS) return hit.actions;
    const row = await load();
    const actions = Object.freeze(Array.isArray(row?.permissions) ? (row!.permissions as string[]).filter((a) => typeof a === 'string') : []);
    cache.set(key, { at: now(), actions });
    return actions;
  };
  const roleById = async (id: number): Promise<Row> => {
    const row = await roles.rowById(id);
    if (!row) throw new NotFoundError('Role not found');
    return row;
  };
  const service: RolesService = {
    byType: (type) => roles.rowWhere({ type }),
    async seed(publicActions, options) {
      const wanted: Record<string, UsersRoleOption> = { authenticated: {}, public: {}, ...options };
      for (const [type, role] of Object.entries(wanted)) {
        if (await service.byType(type)) continue;
        const defaults = type === 'authenticated' ? AUTHENTICATED_DEFAULTS : type === 'public' ? PUBLIC_DEFAULTS : [];
        const given = type === 'public' ? [...publicActions, ...(role.actions ?? [])] : (role.actions ?? []);
        const permissions = [...new Set([...defaults, ...given])];
        const data = { name: role.name ?? capitalized(type), description: role.description ?? DESCRIPTIONS[type] ?? '', type, permissions };
        // Another instance starting at the same time may create it first: the unique `type` index refuses ours.
        await roles.create(data).catch(async (error: unknown) => {
          if (!(await service.byType(type))) throw error;
        });
      }
      cache.clear();
    },
    actionsOf: (documentId) => cached(documentId, () => roles.rowWhere({ documentId })),
    publicActions: () => cached('\0public', () => service.byType('public')),
    async list() {
      const page = await roles.findMany(roles.query('sort=name&pagination[pageSize]=100', openAbility, 'find'));
      return Promise.all(page.data.map(async (role) => ({ ...role, nb_users: await users.count({ role: role.documentId }) })));
    },
    async findOne(id) {
      const row = await roleById(id);
      const role = (await roles.findById(id, roles.query('', openAbility, 'findOne')))!;
      const granted = Array.isArray(row.permissions) ? (row.permissions as string[]) : [];
      return { ...publicFields(role), permissions: permissionsTree(registry, granted) };
    },
    async create(body) {
      const name = body.name;
      const permissions = actionsOfTree(registry, body.permissions);
      const type = typeof body.type === 'string' && body.type !== '' ? body.type : typeof name === 'string' ? typeOfName(name) : undefined;
      if (type !== undefined && (await service.byType(type))) throw new ApplicationError(`A role of type "${type}" already exists`);
      await roles.create({ name, description: body.description ?? '', type, permissions });
      cache.clear();
    },
    async update(id, body) {
      const row = await roleById(id);
      const data: Row = {};
      for (const key of ['name', 'description'] as const) if (body[key] !== undefined) data[key] = body[key];
      if (body.permissions !== undefined) data.permissions = actionsOfTree(registry, body.permissions);
      await roles.update(row.documentId as string, data);
      cache.clear();
    },
    async delete(id) {
      const row = await roleById(id);
      const publicRole = await service.byType('public');
      if (row.type === 'public' || row.id === publicRole?.id) throw new ApplicationError('Cannot delete public role');
      // Strapi moves the role's users to the Public role (one update per user, in the role's `users` order, so
      // each goes at the end of the Public role's `users`), then deletes the role.
      if (!publicRole) throw new ValidationError('The Public role is missing');
      for (const user of await users.linking('role', row.documentId as string)) await users.update(user, { role: publicRole.id });
      await roles.delete(row.documentId as string);
      cache.clear();
    },
  };
  return service;
}

const openAbility = { can: () => true, canFind: () => true, canReadDrafts: () => true, subject: 'users-permissions' };
