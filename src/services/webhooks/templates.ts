/**
 * Custom webhook templates (spec "Custom template (Jinja2)"), rendered with @huggingface/jinja: an
 * interpreter written in TypeScript (no eval, so it runs on Workers). The rendered text must be JSON.
 *
 * Python has datetimes, this interpreter has not: `message.created_at` and `now` are strings holding
 * the ISO 8601 instant (`2024-05-01T08:30:00.123Z`, what `{{ x }}` and `{{ x | tojson }}` print) that
 * also answer the usual datetime members: `isoformat()` (Python's spelling, `+00:00`),
 * `timestamp()` (seconds), `strftime(format)` (UTC), `year`, `month`, `day`, `hour`, `minute`,
 * `second`, `microsecond`, `weekday()`, `isoweekday()`.
 *
 * Runaway templates are stopped: the template is at most MAX_TEMPLATE_CHARS, rendering at most
 * MAX_STEPS interpreter steps, `range()` at most MAX_RANGE items, any string and the output at most
 * MAX_OUTPUT_BYTES.
 */
import { Environment, Interpreter, Template } from "@huggingface/jinja";
import {
  changedFields,
  isConversationEvent,
  type ConversationEventData,
  type DeliveryData,
} from "./conversation-payloads";
import { conversationFields, type WebhookEventData } from "./payloads";

export const MAX_TEMPLATE_CHARS = 20_000;
export const MAX_OUTPUT_BYTES = 256 * 1024;
export const MAX_STEPS = 100_000;
export const MAX_RANGE = 10_000;

/** A template that cannot be parsed, fails to render, or does not render to JSON. */
export class TemplateError extends Error {
  override name = "TemplateError";
}

type RuntimeValue = ReturnType<Environment["set"]>;
type StringValue = Extract<RuntimeValue, { type: string; value: string }>;
type ObjectValue = Extract<RuntimeValue, { value: Map<string, RuntimeValue>; items(): unknown }>;

/** A value converted the way the interpreter converts its inputs. */
const runtime = (value: unknown): RuntimeValue => new Environment().set("value", value);
const StringValueClass = runtime("").constructor as new (value: string) => StringValue;

/** A string (the ISO instant) with the members of a Python datetime in UTC. */
export function dateTimeValue(ms: number): StringValue {
  const d = new Date(ms);
  const value = new StringValueClass(d.toISOString());
  const members = runtime({
    isoformat: () => pythonIsoformat(d),
    timestamp: () => ms / 1000,
    strftime: (format: unknown) => strftime(d, String(format ?? "")),
    weekday: () => (d.getUTCDay() + 6) % 7,
    isoweekday: () => d.getUTCDay() || 7,
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    microsecond: d.getUTCMilliseconds() * 1000,
  }) as ObjectValue;
  Object.defineProperty(value, "builtins", { value: new Map([...value.builtins, ...members.value]) });
  return value;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function pythonIsoformat(d: Date): string {
  const base = d.toISOString().slice(0, 19);
  const micro = d.getUTCMilliseconds() ? `.${pad(d.getUTCMilliseconds(), 3)}000` : "";
  return `${base}${micro}+00:00`;
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function strftime(d: Date, format: string): string {
  const dayOfYear =
    Math.floor(
      (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000,
    ) + 1;
  const h12 = d.getUTCHours() % 12 || 12;
  const codes: Record<string, () => string> = {
    Y: () => String(d.getUTCFullYear()),
    y: () => pad(d.getUTCFullYear() % 100),
    m: () => pad(d.getUTCMonth() + 1),
    d: () => pad(d.getUTCDate()),
    H: () => pad(d.getUTCHours()),
    I: () => pad(h12),
    M: () => pad(d.getUTCMinutes()),
    S: () => pad(d.getUTCSeconds()),
    f: () => `${pad(d.getUTCMilliseconds(), 3)}000`,
    p: () => (d.getUTCHours() < 12 ? "AM" : "PM"),
    a: () => DAYS[d.getUTCDay()].slice(0, 3),
    A: () => DAYS[d.getUTCDay()],
    b: () => MONTHS[d.getUTCMonth()].slice(0, 3),
    B: () => MONTHS[d.getUTCMonth()],
    j: () => pad(dayOfYear, 3),
    z: () => "+0000",
    Z: () => "UTC",
    s: () => String(Math.floor(d.getTime() / 1000)),
    "%": () => "%",
  };
  return format.replace(/%(.)/g, (all, code: string) => codes[code]?.() ?? all);
}

function range(start: number, stop?: number, step = 1): number[] {
  if (stop === undefined) [start, stop] = [0, start];
  if (![start, stop, step].every(Number.isInteger)) throw new TemplateError("range() takes integers.");
  if (step === 0) throw new TemplateError("range() step must not be zero.");
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (count > MAX_RANGE) throw new TemplateError(`range() is limited to ${MAX_RANGE} items.`);
  return Array.from({ length: count }, (_, i) => start + i * step);
}

/** The interpreter, counting its steps and refusing oversized strings as they are built. */
class BoundedInterpreter extends Interpreter {
  private steps = 0;

  step(): void {
    if (++this.steps > MAX_STEPS)
      throw new TemplateError(`The template takes too long to render (more than ${MAX_STEPS} steps).`);
  }

  override evaluate(...args: Parameters<Interpreter["evaluate"]>): RuntimeValue {
    this.step();
    const result = super.evaluate(...args);
    if (typeof result.value === "string" && result.value.length > MAX_OUTPUT_BYTES) throw tooLarge();
    return result;
  }
}

// Every loop iteration runs its body through evaluateBlock (private in the typings), even an empty
// body that evaluates nothing: counted too, or nested empty loops would run unbounded.
type BlockEvaluator = { evaluateBlock(...args: unknown[]): unknown };
const evaluateBlock = (Interpreter.prototype as unknown as BlockEvaluator).evaluateBlock;
(BoundedInterpreter.prototype as unknown as BlockEvaluator).evaluateBlock = function (
  this: BoundedInterpreter,
  ...args: unknown[]
) {
  this.step();
  return evaluateBlock.apply(this, args);
};

const tooLarge = () => new TemplateError(`The template renders more than ${MAX_OUTPUT_BYTES / 1024} KiB.`);

/** The conversation, its inbox and its contact, as the variables of every event name them. */
function conversationVariables(
  c: WebhookEventData["conversation"],
  inbox: WebhookEventData["inbox"],
  contact: WebhookEventData["contact"],
) {
  return {
    conversation: {
      ...conversationFields(c),
      // The spec's assignee is an agent membership reached as assignee.id and assignee.user.name.
      assignee: c.assignee
        ? { id: c.assignee.id, name: c.assignee.name, user: { id: c.assignee.id, name: c.assignee.name } }
        : null,
    },
    inbox: { id: inbox.id, name: inbox.name, channel_type: inbox.channelType },
    contact: contact
      ? {
          id: contact.id,
          name: contact.name,
          email: contact.email,
          phone_number: contact.phoneNumber,
          source_id: contact.sourceId,
        }
      : null,
  };
}

/** The variables the spec lists, snake_case, from one event. */
export function templateVariables(data: WebhookEventData): Record<string, unknown> {
  const { message: m, conversation: c, inbox, contact, sender } = data;
  return {
    // Which event this is: `incoming` or `outgoing` here, `conversation.updated` for a lifecycle event.
    event: m.type,
    message: {
      id: m.id,
      type: m.type,
      content: m.content,
      created_at: new Date(m.createdAt).toISOString(),
      metadata: m.metadata,
    },
    ...conversationVariables(c, inbox, contact),
    sender: { id: sender.id, name: sender.name },
    sender_type: sender.type,
    attachments: data.attachments.map((a) => ({
      id: a.id,
      type: a.type,
      filename: a.filename,
      source_url: a.sourceUrl,
      file: { url: a.fileUrl },
    })),
  };
}

/**
 * The variables of a lifecycle event: `event` ("conversation.updated"), `id`, `reason`, `changes`
 * (keyed as the standard payload's, `changes.progress_status`), `created_at`, and the conversation,
 * inbox and contact as message events name them; `message`, `sender` and `sender_type` are none,
 * `attachments` empty, so a template shared by both kinds tells them apart by `event`.
 */
export function eventTemplateVariables(data: ConversationEventData): Record<string, unknown> {
  return {
    event: data.kind,
    id: data.id,
    reason: data.reason,
    changes: changedFields(data.changes),
    created_at: new Date(data.createdAt).toISOString(),
    ...conversationVariables(data.conversation, data.inbox, data.contact),
    message: null,
    sender: null,
    sender_type: null,
    attachments: [],
  };
}

function environment(data: DeliveryData, now: number): Environment {
  const env = new Environment();
  // The interpreter's own globals (its `range` is replaced by a bounded one).
  for (const [name, value] of [
    ["true", true],
    ["false", false],
    ["none", null],
    ["True", true],
    ["False", false],
    ["None", null],
  ] as const)
    env.set(name, value);
  env.set("range", range);
  env.set("raise_exception", (message: unknown) => {
    throw new TemplateError(String(message));
  });
  if (isConversationEvent(data)) {
    for (const [name, value] of Object.entries(eventTemplateVariables(data))) env.set(name, value);
    env.setVariable("created_at", dateTimeValue(data.createdAt));
  } else {
    for (const [name, value] of Object.entries(templateVariables(data))) env.set(name, value);
    (env.lookupVariable("message") as ObjectValue).value.set("created_at", dateTimeValue(data.message.createdAt));
  }
  env.setVariable("now", dateTimeValue(now));
  return env;
}

/**
 * Renders a custom template for one event and returns the JSON text to send. Throws a TemplateError
 * saying what is wrong when the template cannot be parsed, fails, is too large or too slow, or does
 * not render to valid JSON.
 */
export function renderCustomTemplate(template: string, data: DeliveryData, now = Date.now()): string {
  if (template.length > MAX_TEMPLATE_CHARS)
    throw new TemplateError(`The template is longer than ${MAX_TEMPLATE_CHARS} characters.`);
  let parsed: Template;
  try {
    parsed = new Template(template);
  } catch (err) {
    throw new TemplateError(`The template could not be parsed: ${(err as Error).message}`);
  }
  let output: string;
  try {
    output = String(new BoundedInterpreter(environment(data, now)).run(parsed.parsed).value);
  } catch (err) {
    if (err instanceof TemplateError) throw err;
    if (err instanceof RangeError)
      throw new TemplateError(`The template failed to render: ${err.message} (too large or too deeply nested).`);
    throw new TemplateError(`The template failed to render: ${(err as Error).message}`);
  }
  if (new TextEncoder().encode(output).byteLength > MAX_OUTPUT_BYTES) throw tooLarge();
  try {
    JSON.parse(output);
  } catch (err) {
    const excerpt = output.length > 200 ? `${output.slice(0, 200)}…` : output;
    throw new TemplateError(
      `The template did not render valid JSON (${(err as Error).message}); pass strings through the tojson ` +
        `filter. Output: ${excerpt}`,
    );
  }
  return output;
}

/**
 * Checked once on save: renders with SAMPLE_EVENT_DATA (and, for a webhook that also sends
 * lifecycle events, SAMPLE_CONVERSATION_EVENT) and returns what is wrong, or null.
 */
export function validateCustomTemplate(template: string, conversationEvents = false): string | null {
  try {
    renderCustomTemplate(template, SAMPLE_EVENT_DATA, SAMPLE_EVENT_DATA.message.createdAt + 1_500);
  } catch (err) {
    return (err as Error).message;
  }
  if (!conversationEvents) return null;
  try {
    renderCustomTemplate(template, SAMPLE_CONVERSATION_EVENT, SAMPLE_CONVERSATION_EVENT.createdAt + 1_500);
    return null;
  } catch (err) {
    return `With a lifecycle event (conversationEvents; tell the kinds apart by \`event\`): ${(err as Error).message}`;
  }
}

/** The test data of the save-time check: every variable set, with characters that need escaping. */
export const SAMPLE_EVENT_DATA: WebhookEventData = {
  message: {
    id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    type: "incoming",
    content: 'Hello, my order "A-1042" has not arrived.\nCan you check? 谢谢',
    createdAt: Date.UTC(2024, 4, 1, 8, 30, 0, 123),
    metadata: { timeZone: "Europe/Paris", source: "web" },
    feedback: null,
    citations: [],
  },
  conversation: {
    id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e",
    title: "Order A-1042",
    type: "individual",
    status: "open",
    progressStatus: "human_serving",
    autoReplyEnabled: false,
    assignee: { id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c40", name: "Alex Martin" },
  },
  inbox: { id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c41", name: "Website", channelType: "web" },
  contact: {
    id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c42",
    name: "Jamie Doe",
    email: "jamie@example.com",
    phoneNumber: "+33612345678",
    sourceId: "web-visitor-7f3a",
  },
  sender: { id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c42", name: "Jamie Doe", avatar: null, type: "contact" },
  attachments: [
    {
      id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c43",
      type: "image",
      filename: "receipt.png",
      sourceUrl: "https://cdn.example.com/uploads/receipt.png",
      fileUrl: "https://files.example.com/attachments/receipt.png?sig=abc",
    },
  ],
};

/** The lifecycle event of the save-time check: the sample conversation, taken over by its assignee. */
export const SAMPLE_CONVERSATION_EVENT: ConversationEventData = {
  kind: "conversation.updated",
  id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c44",
  createdAt: Date.UTC(2024, 4, 1, 8, 31, 0, 456),
  // Named as the rows store them: templates see them renamed (`changedFields`), as every event.
  changes: {
    status: ["queued", "open"],
    progressStatus: ["waiting_for_human", "human_serving"],
    assignee: [null, "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c40"],
  },
  reason: "operator",
  conversation: SAMPLE_EVENT_DATA.conversation,
  inbox: SAMPLE_EVENT_DATA.inbox,
  contact: SAMPLE_EVENT_DATA.contact,
};
