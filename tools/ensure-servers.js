#!/usr/bin/env node
// ensure-servers.js makes sure the etcd, nats-server and prometheus binaries that the test harness starts
// are on this machine. On a fresh Debian machine, as root, it installs them with apt-get;
// otherwise it says exactly what to install and fails.
const { execSync } = require('node:child_process');

const needed = [
  { binary: 'etcd', pkg: 'etcd-server' },
  { binary: 'nats-server', pkg: 'nats-server' },
  { binary: 'prometheus', pkg: 'prometheus' },
];

function has(binary) {
  try {
    execSync(`command -v ${binary}`, { stdio: 'ignore', shell: '/bin/bash', env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` } });
    return true;
  } catch {
    return false;
  }
}

const missing = needed.filter((n) => !has(n.binary));
if (missing.length === 0) process.exit(0);

const pkgs = missing.map((m) => m.pkg).join(' ');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(`Plinth's tests need ${missing.map((m) => m.binary).join(' and ')}. Install them with:\n  sudo apt-get update && sudo apt-get install -y ${pkgs}`);
  process.exit(1);
}
console.log(`installing ${pkgs} from Debian (apt-get)`);
execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkgs}`, { stdio: 'inherit', shell: '/bin/bash' });
