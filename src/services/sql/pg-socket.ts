import { connect } from "cloudflare:sockets";
import { Buffer } from "node:buffer";
import { lazy } from "../../lib/lazy";

/**
 * The TCP socket the `postgres` driver gets on Workers (its `socket` option), the same shape as the
 * driver's own Workers polyfill (raw, reader, writer, read: its TLS upgrade uses them), with one
 * difference: the driver removes every listener when a connection closes, and the polyfill then
 * emitted the reader's "socket has been closed" as an `error` event nobody listened to, an
 * unhandled rejection after every query. Here an error nobody listens to is dropped.
 */
async function defineSocket() {
  // node:events is imported by the first connection: a static import of a node: module is evaluated
  // at every cold start, whatever imports it (docs/decisions.md, "Cold start").
  const { EventEmitter } = await import("node:events");
  return class WorkersSocket extends EventEmitter {
    readyState = "opening";
    raw!: ReturnType<typeof connect>;
    writer!: WritableStreamDefaultWriter<Uint8Array>;
    reader!: ReadableStreamDefaultReader<Uint8Array>;
    host = "";
    port = 0;
    ssl = false;
    destroyed = false;

    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event === "error" && this.listenerCount("error") === 0) return false;
      return super.emit(event, ...args);
    }

    async open(host: string, port: number): Promise<this> {
      this.host = host;
      this.port = port;
      this.raw = connect(
        { hostname: host, port },
        { secureTransport: this.ssl ? "starttls" : "off", allowHalfOpen: false },
      );
      this.raw.closed.then(
        () => {
          if (this.readyState !== "upgrade") this.close();
        },
        (e) => this.fail(e),
      );
      this.writer = this.raw.writable.getWriter();
      this.reader = this.raw.readable.getReader();
      this.read();
      await this.writer.ready;
      this.readyState = "open";
      return this;
    }

    write(data: Uint8Array, cb?: () => void) {
      this.writer.write(data).then(cb, (e) => this.fail(e));
      return true;
    }

    end(data?: Uint8Array) {
      if (data) return this.write(data, () => void this.raw.close().catch(() => undefined));
      return void this.raw.close().catch(() => undefined);
    }

    destroy() {
      this.destroyed = true;
      this.end();
    }

    async read() {
      try {
        for (;;) {
          const { done, value } = await this.reader.read();
          if (done) break;
          this.emit("data", Buffer.from(value));
        }
      } catch (err) {
        this.fail(err);
      }
    }

    private close() {
      if (this.readyState === "closed") return;
      this.readyState = "closed";
      this.emit("close");
    }

    private fail(err: unknown) {
      this.emit("error", err);
      this.close();
    }
  };
}

const socketClass = lazy(defineSocket);

/** For `postgres({socket})`: a connected socket (the driver then starts TLS itself when asked). */
export const workersSocket = async (options: { host: string[]; port: number[]; ssl?: unknown }) => {
  const WorkersSocket = await socketClass();
  const socket = new WorkersSocket();
  socket.ssl = !!options.ssl;
  return socket.open(options.host[0], options.port[0]);
};
