/** Every .css file under console/src, bundled into one stylesheet by scripts/build-console.mjs. */
declare module "console:styles";
