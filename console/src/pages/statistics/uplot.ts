// uPlot through a module of ours, so the build gives its chunk the shell as every lazily loaded
// module of console/src (scripts/build-console.mjs, shellOnce): the shell then stays one chunk.
export { default } from "uplot";
