import { uuidv7 } from "../../lib/ids";

/** A message's canvas as a client sends it (`POST /messages/`). */
export interface CanvasInput {
  name: string;
  title: string;
  content: string;
  canvasType: Record<string, unknown>;
}

/**
 * The canvas as a message stores it: the spec's message sample shows a canvas with its own `id` and `createdAt`
 * beside the fields sent, so a client can tell canvases apart and order them. `createdAt` is milliseconds as a
 * string, as every timestamp of a record (CONTRACT section 1).
 */
export function storedCanvas(canvas: CanvasInput, now = Date.now()): Record<string, unknown> {
  return { id: uuidv7(now), ...canvas, createdAt: String(now) };
}
