import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateTypes, type AttributeSchema, type ContentTypeSchema } from '../../../lib';
import { runCli } from '../../../lib/cli';

const USER = 'plugin::users-permissions.user';

const note = (attributes: Record<string, AttributeSchema> = {}): ContentTypeSchema => ({
  kind: 'collectionType',
  info: { singularName: 'note', pluralName: 'notes' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' }, owner: { type: 'relation', relation: 'manyToOne', target: USER }, ...attributes },
});
const plain: ContentTypeSchema = { kind: 'collectionType', info: { singularName: 'tag', pluralName: 'tags' }, attributes: { name: { type: 'string' } } };

/** The body of `export type <name> = {...};` in a generated file, or undefined. */
function declaration(text: string, name: string): string | undefined {
  return new RegExp(`^export type ${name} = \\{\n([^]*?)\n\\};$`, 'm').exec(text)?.[1];
}
/** The member names of a declaration. */
const membersOf = (body: string | undefined): string[] => [...(body ?? '').matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!);

/** A project's src/extensions/users-permissions/content-types/user/schema.json: Strapi's file with the plugin's attributes repeated. */
const extension = {
  kind: 'collectionType',
  collectionName: 'up_users',
  info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
  options: { draftAndPublish: false },
  attributes: {
    username: { type: 'string', minLength: 3, unique: true, required: true },
    password: { type: 'string' }, // the plugin's own: stays its private password, whatever the file says
    bio: { type: 'text' },
    notes: { type: 'relation', relation: 'oneToMany', target: 'api::note.note', mappedBy: 'owner' },
  },
};

describe('generateTypes and the users-permissions plugin', () => {
  it('a relation to users is typed by the plugin\'s user type, whose private attributes are never answered', () => {
    const text = generateTypes({ contentTypes: [note()] });
    expect(declaration(text, 'Note')).toContain('  owner?: UsersPermissionsUser | null;');
    expect(membersOf(declaration(text, 'UsersPermissionsUser'))).toEqual(['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'role', 'createdAt', 'updatedAt', 'publishedAt']);
    expect(declaration(text, 'UsersPermissionsUser')).toMatch(/^ {2}username: string;\n {2}email: string;$/m);
    expect(declaration(text, 'UsersPermissionsUser')).toContain('  role?: UsersPermissionsRole | null;');
    expect(membersOf(declaration(text, 'UsersPermissionsRole'))).toEqual(['id', 'documentId', 'name', 'description', 'type', 'users', 'createdAt', 'updatedAt', 'publishedAt', 'meta']);
  });

  it('the user\'s input type (POST /users, PUT /users/:id) takes the private attributes; the role and the file have none', () => {
    const text = generateTypes({ contentTypes: [note()] });
    expect(membersOf(declaration(text, 'UsersPermissionsUserInput'))).toEqual(['username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role']);
    expect(declaration(text, 'UsersPermissionsUserInput')).toContain('  password?: string | null;');
    expect(text).not.toMatch(/export type (UsersPermissionsRoleInput|UploadFileInput)\b/);
  });

  it('the plugin\'s types are not in the uid maps: router.documents() serves the app\'s content types only', () => {
    const text = generateTypes({ contentTypes: [note()] });
    expect(text).toContain('  interface ContentTypes {\n    "api::note.note": Note;\n  }\n  interface ContentTypeInputs {\n    "api::note.note": NoteInput;\n  }');
  });

  it('each plugin type has its own name (plugin and name), whatever the app\'s types are called', () => {
    const user: ContentTypeSchema = { kind: 'collectionType', info: { singularName: 'user', pluralName: 'app-users' }, attributes: {} };
    const text = generateTypes({ contentTypes: [note({ file: { type: 'relation', relation: 'oneToOne', target: 'plugin::upload.file' } }), user] });
    const names = [...text.matchAll(/^export type (\w+) = \{$/gm)].map((m) => m[1]);
    expect(names).toEqual(['Note', 'User', 'UsersPermissionsUser', 'UsersPermissionsRole', 'UploadFile', 'NoteInput', 'UserInput', 'UsersPermissionsUserInput']);
    expect(declaration(text, 'Note')).toContain('  file?: UploadFile | null;');
  });

  it('the project\'s extension adds its attributes to the user; the plugin\'s own stay the plugin\'s', () => {
    const text = generateTypes({ contentTypes: [note({ owner: { type: 'relation', relation: 'manyToOne', target: USER, inversedBy: 'notes' } })], users: { userSchema: extension } });
    const user = declaration(text, 'UsersPermissionsUser');
    expect(user).toContain('  bio: string | null;');
    expect(user).toContain('  notes?: Note[];');
    expect(user).not.toMatch(/password/);
    expect(declaration(text, 'UsersPermissionsUserInput')).toMatch(/^ {2}password\?: string \| null;\n(.*\n)* {2}bio\?: string \| null;\n {2}notes\?: RelationInput;$/m);
  });

  it('without the extension, a relation whose other side it declares is the router\'s CR_RELATION_MISMATCH', () => {
    const owned = note({ owner: { type: 'relation', relation: 'manyToOne', target: USER, inversedBy: 'notes' } });
    expect(() => generateTypes({ contentTypes: [owned] })).toThrow(/CR_RELATION_MISMATCH: api::note\.note\.owner: inversedBy "notes"/);
  });

  it('users: true generates them without a relation, false refuses a relation to users as the router without auth.users', () => {
    expect(generateTypes({ contentTypes: [plain] })).not.toMatch(/UsersPermissions/);
    expect(declaration(generateTypes({ contentTypes: [plain], users: true }), 'UsersPermissionsUser')).toBeDefined();
    expect(() => generateTypes({ contentTypes: [note()], users: false })).toThrow(/CR_UNKNOWN_TARGET: api::note\.note\.owner: relation to unknown type "plugin::users-permissions\.user"/);
  });

  it('a user type among the definitions (loaded models of a Strapi app) is not added twice', () => {
    const loaded = { ...extension, uid: USER, attributes: { username: { type: 'string' } } };
    const text = generateTypes({ contentTypes: [note(), loaded as ContentTypeSchema] });
    expect(membersOf(declaration(text, 'UsersPermissionsUser'))).toEqual(['id', 'documentId', 'username', 'createdAt', 'updatedAt', 'publishedAt']);
  });

  it.each([
    [{ userSchema: { attributes: [] } }],
    [{ userSchema: 'schema.json' }],
    ['yes'],
  ])('users %j is CR_INVALID_OPTIONS', (users) => {
    expect(() => generateTypes({ contentTypes: [plain], users: users as never })).toThrow(/CR_INVALID_OPTIONS: users/);
  });

  it('an invalid attribute in the extension is the router\'s schema error', () => {
    expect(() => generateTypes({ contentTypes: [plain], users: { userSchema: { attributes: { bio: { type: 'txt' } } } } })).toThrow('CR_UNKNOWN_ATTRIBUTE_TYPE: plugin::users-permissions.user.bio: unknown attribute type "txt"');
  });
});

describe('content-router types and the users-permissions plugin', () => {
  let dir: string;
  let stderr: jest.SpyInstance;
  const out = (): string => path.join(dir, 'types.d.ts');
  const extensionFile = (): string => path.join(dir, 'src', 'extensions', 'users-permissions', 'content-types', 'user', 'schema.json');
  const owned = note({ owner: { type: 'relation', relation: 'manyToOne', target: USER, inversedBy: 'notes' } });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-cli-users-'));
    fs.mkdirSync(path.join(dir, 'src', 'api', 'note'), { recursive: true });
    fs.mkdirSync(path.dirname(extensionFile()), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'api', 'note', 'schema.json'), JSON.stringify(owned));
    fs.writeFileSync(extensionFile(), JSON.stringify(extension));
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const errorText = (): string => stderr.mock.calls.map((c) => String(c[0])).join('');

  it('--users-extension <schema.json>: what generateTypes writes with the router\'s userSchema', () => {
    expect(runCli(['types', '--schemas', path.join(dir, 'src', 'api'), '--users-extension', extensionFile(), '--out', out()])).toBe(0);
    expect(fs.readFileSync(out(), 'utf8')).toBe(generateTypes({ contentTypes: [owned], users: { userSchema: extension } }));
  });

  it('a relation to users alone needs no flag; --users adds the types without one', () => {
    fs.writeFileSync(path.join(dir, 'src', 'api', 'note', 'schema.json'), JSON.stringify(note()));
    expect(runCli(['types', '--schemas', path.join(dir, 'src', 'api'), '--out', out()])).toBe(0);
    expect(fs.readFileSync(out(), 'utf8')).toContain('  owner?: UsersPermissionsUser | null;');
    fs.writeFileSync(path.join(dir, 'src', 'api', 'note', 'schema.json'), JSON.stringify(plain));
    expect(runCli(['types', '--schemas', path.join(dir, 'src', 'api'), '--users', '--out', out()])).toBe(0);
    expect(fs.readFileSync(out(), 'utf8')).toBe(generateTypes({ contentTypes: [plain], users: true }));
  });

  it('a relation declared on the other side by a missing extension says which flag gives it', () => {
    expect(runCli(['types', '--schemas', path.join(dir, 'src', 'api'), '--out', out()])).toBe(1);
    expect(errorText()).toMatch(/CR_RELATION_MISMATCH[^]*give it with --users-extension <file>/);
    expect(fs.existsSync(out())).toBe(false);
  });

  it('the extension among --schemas is refused with the flag to use (it is no content type of its own)', () => {
    expect(runCli(['types', '--schemas', path.join(dir, 'src'), '--out', out()])).toBe(1);
    expect(errorText()).toContain(`${extensionFile()}: this is the users-permissions plugin's user extension, not a content type: give it with --users-extension ${extensionFile()}`);
  });

  it.each([
    [['--users-extension'], /--users-extension takes one file/],
    [['--users-extension', 'a.json', 'b.json'], /--users-extension takes one file/],
    [['--users', 'yes'], /--users takes no value: "yes"/],
    [['--users-extension', 'missing.json'], /missing\.json: ENOENT/],
  ])('%j exits 1: %s', (flags, message) => {
    expect(runCli(['types', '--schemas', path.join(dir, 'src', 'api'), ...flags, '--out', out()])).toBe(1);
    expect(errorText()).toMatch(message);
  });

  it('an extension that is no schema object exits 1 naming the file', () => {
    fs.writeFileSync(extensionFile(), '{"attributes": []}');
    expect(runCli(['types', '--schemas', path.join(dir, 'src', 'api'), '--users-extension', extensionFile(), '--out', out()])).toBe(1);
    expect(errorText()).toContain(`--users-extension ${extensionFile()}: expected a schema.json object with "attributes"`);
  });
});
