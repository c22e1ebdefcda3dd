// The floor of `npm run bench -- completions`' streamed measure: a worker that only passes the
// model's stream on (the upstream's URL in `?to=`), under `wrangler dev` like ours. What it adds
// over the upstream's own first byte is what the local runtime and wrangler's proxy add to any
// worker that streams a fetch; ours adds that and our code.
export default {
  async fetch(request) {
    const to = new URL(request.url).searchParams.get("to");
    if (!to) return new Response("ok");
    return fetch(to, { method: "POST", headers: request.headers, body: await request.text() });
  },
};
