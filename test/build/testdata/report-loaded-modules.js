// Preloaded (-r) into an app by app-modules.spec.ts: when the process exits, it writes the files
// it loaded to stderr, one JSON line.
process.on('exit', () => {
  process.stderr.write(`loaded modules: ${JSON.stringify(Object.keys(require.cache))}\n`);
});
