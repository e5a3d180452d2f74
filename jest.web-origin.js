// Fixed loopback port of the gateway the component tests talk to (jsdom needs its origin up front).
const WEB_TEST_PORT = Number(process.env.WEB_TEST_PORT ?? 18480);
module.exports = { WEB_TEST_PORT, WEB_TEST_ORIGIN: `http://127.0.0.1:${WEB_TEST_PORT}` };
