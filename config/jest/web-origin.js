// Loopback port of the gateway the component tests talk to. jsdom needs its origin when the config is
// read, before any server exists, so a free port is picked here, synchronously (a child process asks the
// OS for one), and kept in the environment for the global setup, which runs in this same process.
const { spawnSync } = require('node:child_process');

function freePort() {
  const probe = "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  const port = Number(spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).stdout);
  if (!Number.isInteger(port) || port <= 0) throw new Error('could not find a free loopback port for the web tests');
  return port;
}

process.env.WEB_TEST_PORT ??= String(freePort());
const WEB_TEST_PORT = Number(process.env.WEB_TEST_PORT);
module.exports = { WEB_TEST_PORT, WEB_TEST_ORIGIN: `http://127.0.0.1:${WEB_TEST_PORT}` };
