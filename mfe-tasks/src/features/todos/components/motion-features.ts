// The DOM animation features of framer-motion, in a chunk of their own (issue #10, the first load): the
// task list's LazyMotion loads them after the first render instead of with the page.
export { domAnimation as default } from 'framer-motion';
