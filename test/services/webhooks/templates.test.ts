import { describe, expect, it } from "vitest";
import { thrownBy } from "../../support/errors";
import {
  MAX_OUTPUT_BYTES,
  MAX_TEMPLATE_CHARS,
  SAMPLE_CONVERSATION_EVENT,
  SAMPLE_EVENT_DATA,
  TemplateError,
  eventTemplateVariables,
  renderCustomTemplate,
  templateVariables,
  validateCustomTemplate,
} from "../../../src/services/webhooks/templates";
import {
  CREATED_AT,
  SAMPLE_SENT,
  SAMPLE_SENT_CHANGES,
  bareEvent,
  sampleConversationEvent,
  sampleEvent,
} from "./sample";

const NOW = Date.UTC(2024, 4, 1, 8, 30, 5, 0);
const render = (template: string, data = sampleEvent()) => JSON.parse(renderCustomTemplate(template, data, NOW));

/** Uses every variable the spec lists. */
const EVERY_VARIABLE = `{
  "message": {
    "id": {{ message.id | tojson }},
    "type": {{ message.type | tojson }},
    "content": {{ message.content | tojson }},
    "created_at": {{ message.created_at | tojson }},
    "metadata": {{ message.metadata | tojson }}
  },
  "conversation": {
    "id": {{ conversation.id | tojson }},
    "title": {{ conversation.title | tojson }},
    "type": {{ conversation.type | tojson }},
    "status": {{ conversation.status | tojson }},
    "progress_status": {{ conversation.progress_status | tojson }},
    "auto_reply_enabled": {{ conversation.auto_reply_enabled | tojson }},
    "assignee": {% if conversation.assignee %}{
      "id": {{ conversation.assignee.id | tojson }}, "name": {{ conversation.assignee.user.name | tojson }}
    }{% else %}null{% endif %}
  },
  "inbox": {
    "id": {{ inbox.id | tojson }}, "name": {{ inbox.name | tojson }}, "channel_type": {{ inbox.channel_type | tojson }}
  },
  "contact": {% if contact %}{
    "id": {{ contact.id | tojson }},
    "name": {{ contact.name | tojson }},
    "email": {{ contact.email | tojson }},
    "phone_number": {{ contact.phone_number | tojson }},
    "source_id": {{ contact.source_id | tojson }}
  }{% else %}null{% endif %},
  "sender": {"id": {{ sender.id | tojson }}, "name": {{ sender.name | tojson }}, "type": {{ sender_type | tojson }}},
  "attachments": [
    {%- for a in attachments -%}
    {"id": {{ a.id | tojson }}, "type": {{ a.type | tojson }}, "filename": {{ a.filename | tojson }},
     "source_url": {{ a.source_url | tojson }}, "url": {{ a.file.url | tojson }}}{% if not loop.last %},{% endif %}
    {%- endfor -%}
  ],
  "now": {{ now | tojson }}
}`;

describe("renderCustomTemplate", () => {
  it("renders a template using every documented variable", () => {
    expect(render(EVERY_VARIABLE)).toStrictEqual({
      message: {
        id: "01900000-0000-7000-8000-000000000001",
        type: "outgoing",
        content: "您好！我们的营业时间是 9 点到 5 点。",
        created_at: "2024-05-01T08:30:00.123Z",
        metadata: { timeZone: "Asia/Taipei", nested: { a: [1, 2] } },
      },
      ...SAMPLE_SENT.context,
      contact: { ...SAMPLE_SENT.context.contact, source_id: "U4af4980629" },
      sender: SAMPLE_SENT.sender,
      attachments: [{ ...SAMPLE_SENT.attachment, url: "https://files.example.com/map.png" }],
      now: "2024-05-01T08:30:05.000Z",
    });
  });

  it("renders None contact and assignee, and no attachments", () => {
    const out = render(EVERY_VARIABLE, bareEvent());
    expect(out.contact).toBeNull();
    expect(out.conversation.assignee).toBeNull();
    expect(out.attachments).toEqual([]);
    expect(out.sender).toEqual({ id: null, name: "Visitor", type: "contact" });
    expect(
      render(
        '{"c": {{ contact | tojson }}, "a": {{ conversation.assignee | tojson }}, "none": {{ contact is none }}}',
        bareEvent(),
      ),
    ).toEqual({
      c: null,
      a: null,
      none: true,
    });
  });

  it("escapes quotes, backslashes, newlines, control characters and Chinese through tojson", () => {
    const tricky = 'He said "hi" \\ then\nleft\t\u0001 <b>&</b> — 你好，世界 😀';
    const e = sampleEvent();
    const data = { ...e, message: { ...e.message, content: tricky }, contact: { ...e.contact!, name: '王"小明"\n' } };
    const out = render('{"text": {{ message.content | tojson }}, "who": {{ contact.name | tojson }}}', data);
    expect(out).toEqual({ text: tricky, who: '王"小明"\n' });
  });

  it("gives the datetimes a tojson of the ISO string and the usual datetime members", () => {
    const out = render(`{
      "str": "{{ message.created_at }}",
      "iso": {{ message.created_at.isoformat() | tojson }},
      "ts": {{ message.created_at.timestamp() }},
      "fmt": {{ message.created_at.strftime("%Y-%m-%d %H:%M:%S.%f %Z %a %b %j") | tojson }},
      "parts": [{{ message.created_at.year }}, {{ message.created_at.month }}, {{ message.created_at.day }},
        {{ message.created_at.hour }}, {{ message.created_at.minute }}, {{ message.created_at.second }},
        {{ message.created_at.microsecond }}],
      "weekday": {{ message.created_at.weekday() }},
      "now": {{ now.isoformat() | tojson }},
      "ms": {{ (message.created_at.timestamp() * 1000) | int }},
      "upper": {{ message.created_at.upper() | tojson }}
    }`);
    expect(out).toEqual({
      str: "2024-05-01T08:30:00.123Z",
      iso: "2024-05-01T08:30:00.123000+00:00",
      ts: CREATED_AT / 1000,
      fmt: "2024-05-01 08:30:00.123000 UTC Wed May 122",
      parts: [2024, 5, 1, 8, 30, 0, 123000],
      weekday: 2,
      now: "2024-05-01T08:30:05+00:00",
      ms: CREATED_AT,
      upper: "2024-05-01T08:30:00.123Z",
    });
  });

  it("supports the common filters and control flow", () => {
    const out = render(`{% set n = attachments | length %}{
      "title": {{ conversation.title | upper | tojson }},
      "n": {{ n }},
      "names": {{ attachments | map(attribute="filename") | list | tojson }},
      "who": {{ (contact.name if contact else "anonymous") | tojson }},
      "tz": {{ message.metadata.timeZone | default("UTC") | tojson }},
      "missing": {{ message.metadata.nope | default("fallback") | tojson }},
      "pretty": {{ {"a": 1} | tojson(indent=2) | tojson }}
    }`);
    expect(out).toEqual({
      title: "OPENING HOURS",
      n: 1,
      names: ["map.png"],
      who: "Chen Mei Ling",
      tz: "Asia/Taipei",
      missing: "fallback",
      pretty: '{\n  "a": 1\n}',
    });
  });

  it("returns the rendered text as it is", () => {
    expect(renderCustomTemplate('  {"a": {{ 1 + 1 }},\n "b": {{ "x" | tojson }}}', sampleEvent(), NOW)).toBe(
      '  {"a": 2,\n "b": "x"}',
    );
    expect(renderCustomTemplate('"just a string"', sampleEvent(), NOW)).toBe('"just a string"');
  });
});

describe("template errors", () => {
  const errorOf = (template: string, data = sampleEvent()) =>
    thrownBy(() => renderCustomTemplate(template, data, NOW), TemplateError).message;

  it("reports a template that does not parse", () => {
    expect(errorOf('{"a": {{ message.id }')).toMatch(/^The template could not be parsed: /);
    expect(errorOf('{% if contact %}{"a": 1}')).toMatch(/could not be parsed/);
    expect(errorOf("{{ message.id | }}")).toMatch(/could not be parsed/);
  });

  it("reports a template that fails while rendering", () => {
    expect(errorOf('{"a": {{ message.content | no_such_filter }}}')).toMatch(
      /^The template failed to render: .*no_such_filter/,
    );
    expect(errorOf('{"a": {{ raise_exception("custom failure") }}}')).toBe("custom failure");
    expect(errorOf('{"a": {{ none_such + 1 }}}')).toMatch(/failed to render/);
  });

  it("reports output that is not JSON, with the parser's message and the output", () => {
    const message = errorOf('{"text": "{{ message.content }}"}', {
      ...sampleEvent(),
      message: { ...sampleEvent().message, content: 'say "hi"' },
    });
    const invalid = String.raw`^The template did not render valid JSON \(.+\); `;
    const advice = String.raw`pass strings through the tojson filter\. Output: \{"text": "say "hi""\}$`;
    expect(message).toMatch(new RegExp(invalid + advice));
    expect(errorOf("hello {{ message.id }}")).toMatch(/did not render valid JSON/);
    expect(errorOf("")).toMatch(/did not render valid JSON/);
    expect(errorOf('{"a": 1} trailing')).toMatch(/did not render valid JSON/);
  });

  it("cuts a long invalid output in the message", () => {
    const message = errorOf(`{% for i in range(500) %}x{% endfor %}`);
    expect(message.length).toBeLessThan(400);
    expect(message).toMatch(/x{200}…$/);
  });

  it("refuses a template that is too long", () => {
    const long = `{"a": ${JSON.stringify("x".repeat(MAX_TEMPLATE_CHARS))}}`;
    expect(errorOf(long)).toMatch(/longer than 20000 characters/);
  });

  it("refuses output that is too large, even when built in one string", () => {
    expect(
      errorOf(`[{% for i in range(9000) %}{{ "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" | tojson }},{% endfor %}1]`),
    ).toMatch(/more than 256 KiB/);
    expect(
      errorOf(
        `{% set s = "xxxxxxxxxxxxxxxx" %}{% for i in range(30) %}{% set s = s ~ s %}{% endfor %}{{ s | tojson }}`,
      ),
    ).toMatch(/more than 256 KiB/);
    expect(MAX_OUTPUT_BYTES).toBe(256 * 1024);
  });

  it("stops runaway loops and huge ranges", () => {
    expect(errorOf("{% for i in range(100000000) %}{% endfor %}")).toMatch(/range\(\) is limited/);
    expect(errorOf("{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}1")).toMatch(
      /too long to render/,
    );
  });

  it("stops loops that render nothing but iterate a lot", () => {
    const started = Date.now();
    expect(
      errorOf(
        "{% for i in range(10000) %}{% for j in range(10000) %}{% if false %}x{% endif %}{% endfor %}{% endfor %}1",
      ),
    ).toMatch(/too long to render/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("reports a macro calling itself (not supported) as a render failure", () => {
    expect(errorOf("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}")).toMatch(/failed to render/);
  });
});

describe("validateCustomTemplate", () => {
  it("accepts a good template, including one using every variable", () => {
    expect(validateCustomTemplate('{"text": {{ message.content | tojson }}}')).toBeNull();
    expect(validateCustomTemplate(EVERY_VARIABLE)).toBeNull();
  });

  it("returns the error text of a bad template", () => {
    expect(validateCustomTemplate('{"a": {{ message.id }')).toMatch(/could not be parsed/);
    expect(validateCustomTemplate("not json")).toMatch(/did not render valid JSON/);
  });

  it("catches a template that forgets tojson, as the sample content has quotes and a newline", () => {
    expect(validateCustomTemplate('{"text": "{{ message.content }}"}')).toMatch(/did not render valid JSON/);
  });

  it("uses realistic sample data with every variable set", () => {
    const vars = templateVariables(SAMPLE_EVENT_DATA);
    expect(vars.contact).not.toBeNull();
    expect(vars.conversation).not.toHaveProperty("assignee", null);
    expect(vars.attachments).toHaveLength(1);
    expect(SAMPLE_EVENT_DATA.message.content).toMatch(/"/);
    expect(SAMPLE_EVENT_DATA.message.content).toMatch(/\n/);
  });
});

describe("a lifecycle event's variables (conversation.updated)", () => {
  it("name changes, conversation, inbox and contact in snake_case, as a message event's variables do", () => {
    const event = sampleConversationEvent();
    const vars = eventTemplateVariables(event);
    expect(vars).toMatchObject({
      event: "conversation.updated",
      id: event.id,
      reason: "operator",
      created_at: "2024-05-01T08:30:01.123Z",
      changes: SAMPLE_SENT_CHANGES,
      message: null,
      sender: null,
      sender_type: null,
      attachments: [],
    });
    expect(Object.keys(vars.changes as object).sort()).toEqual([
      "assignee",
      "auto_reply_enabled",
      "progress_status",
      "status",
    ]);
    const message = templateVariables({ ...sampleEvent(), conversation: event.conversation });
    for (const name of ["conversation", "inbox", "contact"]) expect(vars[name]).toStrictEqual(message[name]);
    expect(vars.conversation).toMatchObject({ progress_status: "human_serving", auto_reply_enabled: false });
    expect(vars.conversation).not.toHaveProperty("progressStatus");
  });

  it("render by the snake_case names; the API's names are undefined", () => {
    const template =
      '{"was": {{ changes.progress_status[0] | tojson }}, "now": {{ conversation.progress_status | tojson }}, ' +
      '"channel": {{ inbox.channel_type | tojson }}, "old": {{ (changes.progressStatus is defined) | tojson }}}';
    const out = JSON.parse(renderCustomTemplate(template, sampleConversationEvent(), NOW));
    expect(out).toEqual({ was: "waiting_for_human", now: "human_serving", channel: "line", old: false });
  });

  it("are checked on opting in with the sample event, whose changes are keyed the same way", () => {
    expect(eventTemplateVariables(SAMPLE_CONVERSATION_EVENT).changes).toEqual({
      status: ["queued", "open"],
      progress_status: ["waiting_for_human", "human_serving"],
      assignee: [null, "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c40"],
    });
    const lifecycle = (was: string) =>
      `{% if event == "conversation.updated" %}{"was": ${was}}` +
      '{% else %}{"text": {{ message.content | tojson }}}{% endif %}';
    expect(validateCustomTemplate(lifecycle("{{ changes.progress_status[0] | tojson }}"), true)).toBeNull();
    expect(validateCustomTemplate(lifecycle("{{ changes.progressStatus[0] | tojson }}"), true)).toMatch(
      /With a lifecycle event/,
    );
  });
});
