/** workerd imports a `.wasm` file as a compiled module (wrangler's CompiledWasm rule, also in Miniflare). */
declare module "@jitl/quickjs-wasmfile-release-sync/wasm" {
  const module: WebAssembly.Module;
  export default module;
}
