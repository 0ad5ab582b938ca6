import type { ContentTypeSchema } from '../../lib';

/**
 * A model with users (the users-permissions plugin): memos owned by a user and reviewed by users, and the project's
 * extension of the user type (Strapi's src/extensions/users-permissions/content-types/user/schema.json: the
 * plugin's attributes repeated, a `bio` and the other side of `owner` added). generated/users.d.ts is its types.
 */
export const memoType: ContentTypeSchema = {
  kind: 'collectionType',
  collectionName: 'memos',
  info: { singularName: 'memo', pluralName: 'memos', displayName: 'Memo' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string', required: true },
    owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user', inversedBy: 'memos' },
    reviewers: { type: 'relation', relation: 'manyToMany', target: 'plugin::users-permissions.user' },
  },
};

export const userExtension = {
  kind: 'collectionType',
  collectionName: 'up_users',
  info: { name: 'user', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
  options: { draftAndPublish: false },
  attributes: {
    username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
    email: { type: 'email', minLength: 6, configurable: false, required: true },
    password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
    bio: { type: 'text' },
    memos: { type: 'relation', relation: 'oneToMany', target: 'api::memo.memo', mappedBy: 'owner' },
  },
};
