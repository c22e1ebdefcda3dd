// Types of openapi-subset.mjs, for the staleness test that imports it (test/conventions/console-types.test.ts).
export declare const WIDGET_PATHS: string;
export declare function onlyPaths<D extends { paths: object }>(doc: D, keep: (path: string) => boolean): D;
export declare function widgetDocument<D extends { paths: object }>(doc: D): D;
