/** Files imported as text (Vite's `?raw`), such as the console's generated API types. */
declare module "*?raw" {
  const text: string;
  export default text;
}
