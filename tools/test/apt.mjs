// Debian packages a test step needs and npm cannot bring (the status-page test's browser, the C++
// tool chain that compiles the RocksDB binding for test:lts), installed with apt-get on a fresh
// Debian/Ubuntu machine: as root, or through `sudo -n`. Says what it does and why it cannot.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Makes sure `present()` holds, installing `packages` with apt-get when it does not; `title` names
 * the step in what it prints. True when `present()` holds at the end.
 */
export function ensureDebianPackages(title, packages, present) {
  if (present()) return true;
  const aptGet = ['/usr/bin/apt-get', '/bin/apt-get'].find((candidate) => existsSync(candidate));
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (!aptGet) {
    process.stdout.write(`\n== ${title}: apt-get is not available: run the equivalent of "${command}" to install what it needs\n`);
    return false;
  }
  const asRoot = process.getuid?.() === 0;
  if (!asRoot && !existsSync('/usr/bin/sudo')) {
    process.stdout.write(`\n== ${title}: installing ${packages.join(', ')} needs root: run "${command}" as root\n`);
    return false;
  }
  process.stdout.write(`\n== ${title}: installing ${packages.join(', ')} with apt-get\n`);
  const apt = (args) => {
    const [file, argv] = asRoot ? [aptGet, args] : ['/usr/bin/sudo', ['-n', aptGet, ...args]];
    return spawnSync(file, argv, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  };
  const installed = apt(['update']) && apt(['install', '-y', '--no-install-recommends', ...packages]) && present();
  if (!installed) process.stdout.write(`== ${title}: could not install ${packages.join(', ')}\n`);
  return installed;
}
