module.exports = async function globalTeardown() {
  await globalThis.__TM_E2E_APP__?.stop();
};
