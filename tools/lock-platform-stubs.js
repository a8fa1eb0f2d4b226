#!/usr/bin/env node
// lock-platform-stubs.js completes package-lock.json with the platform-specific optional
// packages (swc, nx, resolvers for other operating systems and CPUs) that this machine's
// registry does not serve. npm leaves them out of the lock when it cannot fetch their
// metadata, and `npm ci` then refuses the lock as out of sync. Each stub names the platform it
// is for, so npm skips it here as it would any foreign optional binary.
// Run after every `npm install`: node tools/lock-platform-stubs.js
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const osNames = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'netbsd', 'openbsd', 'aix', 'wasi'];
const cpuNames = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

function platformOf(name) {
  const base = name.split('/').pop();
  const os = osNames.find((o) => base.includes(o)) ?? 'wasi';
  let cpu = cpuNames.find((c) => new RegExp(`(^|-)${c}(-|$)`).test(base));
  if (!cpu && /gnueabihf|musleabihf|eabi/.test(base)) cpu = 'arm';
  if (!cpu && /wasm/.test(base)) cpu = 'wasm32';
  return { os: [os], cpu: [cpu ?? 'wasm32'] };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const prefix = location === '' ? '' : `${location}/`;
    const nested = `${prefix}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[nested] || packages[hoisted]) continue;
    const { os, cpu } = platformOf(dep);
    if (os[0] === 'linux' && (cpu[0] === 'x64')) continue;
    packages[hoisted] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, os, cpu };
    added++;
  }
}
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platform-stubs: added ${added} platform stubs`);
