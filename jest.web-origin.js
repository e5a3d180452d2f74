// Loopback port of the gateway the component tests talk to. jsdom needs its origin when the config is
// read, before any server exists, so the port is derived from the jest process id (config and global
// setup run in that same process): two jest runs on one machine then do not collide.
const WEB_TEST_PORT = Number(process.env.WEB_TEST_PORT ?? 20000 + (process.pid % 10000));
process.env.WEB_TEST_PORT = String(WEB_TEST_PORT);
module.exports = { WEB_TEST_PORT, WEB_TEST_ORIGIN: `http://127.0.0.1:${WEB_TEST_PORT}` };
