module.exports = async function globalTeardown() {
  const stack = globalThis.__TM_WEB_STACK__;
  if (!stack) return;
  await Promise.all(stack.processes.map((p) => p.stop()));
  stack.data.remove();
};
