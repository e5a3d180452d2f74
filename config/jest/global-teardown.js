module.exports = async function globalTeardown() {
  await globalThis.__TM_WEB_STACK__?.stop();
};
