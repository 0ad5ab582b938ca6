import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ADMIN_DIR } from '../../lib/http/create-admin';

/**
 * The built admin ships in the npm package: `npm pack` of a copy of package.json beside a stand-in build
 * (`dist/index.js`, `dist/http/create-admin.js`, `dist/admin/index.html`, a hashed asset) lists the admin's files,
 * and `createAdmin` looks for them where the package puts them. (The real build, `npm run build`, is packed by
 * tarball.test.ts.)
 */
const REPO = join(__dirname, '..', '..');
const npmAvailable = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;

(npmAvailable ? describe : describe.skip)('the package files', () => {
  it('include dist/admin when it is built', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cr-admin-pack-'));
    copyFileSync(join(REPO, 'package.json'), join(dir, 'package.json'));
    const files = ['dist/index.js', 'dist/http/create-admin.js', 'dist/admin/index.html', 'dist/admin/assets/index-3f2a9c.js', 'dist/admin/assets/index-3f2a9c.css'];
    for (const file of files) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), '/* stand-in */');
    }
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
    expect(packed.status).toBe(0);
    const listed = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(listed).toEqual(expect.arrayContaining(files));
  });

  it('createAdmin looks for the build in <package root>/dist/admin (from lib/ and from dist/ alike)', () => {
    expect(DEFAULT_ADMIN_DIR).toBe(join(REPO, 'dist', 'admin'));
  });
});
