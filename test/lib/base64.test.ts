import { describe, expect, it } from "vitest";
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from "../../src/lib/base64";
import { decryptSecret, encryptSecret } from "../../src/lib/crypto";

const bytesOf = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 7919) % 256);

describe("base64", () => {
  it("writes what btoa writes, byte for byte, for every byte value", () => {
    const bytes = bytesOf(256 * 3 + 1);
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    expect(toBase64(bytes)).toBe(btoa(binary));
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
  });

  it("takes text as UTF-8", () => {
    expect(toBase64("é日")).toBe("w6nml6U=");
    expect(new TextDecoder().decode(fromBase64("w6nml6U="))).toBe("é日");
  });

  it("carries a megabyte (more than one call's arguments) there and back", () => {
    const bytes = bytesOf(1 << 20);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(fromBase64Url(toBase64Url(bytes.buffer))).toEqual(bytes);
  });

  it("base64url has no +, / or padding, and reads back", () => {
    const bytes = Uint8Array.from([251, 255, 254, 0]);
    expect(toBase64(bytes)).toBe("+//+AA==");
    expect(toBase64Url(bytes)).toBe("-__-AA");
    expect(fromBase64Url("-__-AA")).toEqual(bytes);
  });

  it("refuses what is not base64", () => {
    expect(() => fromBase64("not base64!")).toThrow();
  });

  it("seals and opens a value of a megabyte", async () => {
    const key = "k".repeat(32);
    const plain = "x".repeat(1 << 20);
    expect(await decryptSecret(await encryptSecret(plain, key), key)).toBe(plain);
  });
});
