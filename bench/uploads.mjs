// `npm run bench -- uploads`: latency of issuing a presigned POST policy, and upload throughput
// (MB/s) of 1 MB and 20 MB files through our own upload target (S3 POST form, file last, policy
// verified, streamed into R2) against a direct R2 put of the same bytes in the same run (the
// presigned PUT target: the request body goes into the R2 binding untouched), each on its own
// `wrangler dev`. Uploads alternate (and which of the two goes first), so drift hits both alike;
// medians of at least BENCH_ROUNDS (5) uploads, and of as many as carry 200 MB (10 of 20 MB, 200
// of 1 MB). Peak resident memory of each server's workerd is sampled over the first BENCH_ROUNDS of
// each size: it stays flat as files grow when uploads stream rather than buffer.
import { readFileSync, readdirSync } from "node:fs";
import { median, percentile, startServer } from "./lib.mjs";

const ISSUE_COUNT = 200;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Rounds of one size: at least ROUNDS, and as many as carry ~200 MB (a 1 MB upload takes tens of ms, as noisy as a
 * shared machine). */
const roundsFor = (mb) => Math.max(ROUNDS, Math.ceil(200 / mb));
/** BENCH_UPLOAD_SIZES=1,20,80 adds sizes (MB); over 20 the servers allow attachments that large (ALLOWED_FILE_SPECS).
 * */
const SIZES = (process.env.BENCH_UPLOAD_SIZES ?? "1,20").split(",").map(Number);
const LARGE_SPECS =
  Math.max(...SIZES) > 20
    ? {
        ALLOWED_FILE_SPECS: JSON.stringify({
          attachment: { file: { max_size: (Math.max(...SIZES) + 1) * 1_048_576 } },
        }),
      }
    : {};

/** Resident memory (MB) of the workerd processes below `root` (one server's `wrangler dev`), or of every workerd
 * without one. */
function workerdRssMb(root) {
  const parent = new Map();
  const pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  for (const pid of pids) {
    try {
      parent.set(pid, readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
    } catch {
      /* exited */
    }
  }
  const below = (pid) => {
    for (let p = pid, hops = 0; p && p !== "0" && hops < 20; p = parent.get(p), hops++)
      if (p === String(root)) return true;
    return false;
  };
  let kb = 0;
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd") || (root && !below(pid))) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      /* exited */
    }
  }
  return kb / 1024;
}

function multipart(fields, filename, bytes) {
  const boundary = Math.random().toString(16).slice(2) + Date.now().toString(16);
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("");
  const fileHead =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ` +
    `application/pdf\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head + fileHead), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export default async function () {
  const server = await startServer({ port: 8791, vars: LARGE_SPECS });
  const putServer = await startServer({ port: 8792, vars: { PRESIGNED_UPLOAD_METHOD: "PUT", ...LARGE_SPECS } });
  try {
    const presign = (s, fileSize) =>
      s.api("/upload-presigned-url/", {
        body: { filename: "doc.pdf", model_name: "attachment", field_name: "file", file_size: fileSize },
      });
    for (let i = 0; i < 20; i++) await presign(server, 1000);
    const issue = [];
    for (let i = 0; i < ISSUE_COUNT; i++) {
      const t = performance.now();
      await presign(server, 1000);
      issue.push(performance.now() - t);
    }
    console.log(
      `presigned POST policy issue: p50 ${median(issue).toFixed(2)} ms, p99 ` +
        `${percentile(issue, 99).toFixed(2)} ms (${ISSUE_COUNT} sequential requests)`,
    );

    // One pair of uploads (POST target, direct PUT) of `bytes`; which goes first alternates with `round`.
    const pair = async (bytes, round) => {
      const uploadPost = async () => {
        const post = await presign(server, bytes.length);
        const { body, contentType } = multipart(post.fields, "doc.pdf", bytes);
        const t = performance.now();
        const res = await fetch(post.url, { method: "POST", body, headers: { "Content-Type": contentType } });
        if (res.status !== 204) throw new Error(`POST target answered ${res.status}: ${await res.text()}`);
        return performance.now() - t;
      };
      const uploadPut = async () => {
        const put = await presign(putServer, bytes.length);
        const t = performance.now();
        const res = await fetch(put.url, { method: "PUT", body: bytes, headers: put.headers });
        if (res.status !== 200) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
        return performance.now() - t;
      };
      if (round % 2 === 0) {
        const postMs = await uploadPost();
        return { postMs, putMs: await uploadPut() };
      }
      const putMs = await uploadPut();
      return { postMs: await uploadPost(), putMs };
    };

    // First each size in turn, warm-up and ROUNDS, with memory sampled: the same number of uploads
    // per size, as a server's memory also creeps up with the count of requests, whatever their size.
    const results = [];
    for (const mb of SIZES) {
      const bytes = Buffer.alloc(mb * 1024 * 1024, 7);
      const result = { mb, bytes, target: [], direct: [] };
      // Resident memory of each server's own workerd processes (its local R2 storage included).
      result.base = { post: workerdRssMb(server.pid), put: workerdRssMb(putServer.pid) };
      const peak = { ...result.base };
      const sampler = setInterval(() => {
        peak.post = Math.max(peak.post, workerdRssMb(server.pid));
        peak.put = Math.max(peak.put, workerdRssMb(putServer.pid));
      }, 20);
      for (let round = 0; round <= ROUNDS; round++) {
        const { postMs, putMs } = await pair(bytes, round);
        if (round === 0) continue; // warm-up
        result.target.push(mb / (postMs / 1000));
        result.direct.push(mb / (putMs / 1000));
      }
      clearInterval(sampler);
      result.peak = peak;
      results.push(result);
    }
    // Then more rounds of each size, for throughput only.
    for (const result of results) {
      for (let round = ROUNDS + 1; round <= roundsFor(result.mb); round++) {
        const { postMs, putMs } = await pair(result.bytes, round);
        result.target.push(result.mb / (postMs / 1000));
        result.direct.push(result.mb / (putMs / 1000));
      }
    }
    for (const { mb, target, direct, peak, base } of results) {
      const ratio = median(target) / median(direct);
      console.log(
        `${String(mb).padStart(2)} MB: our POST target ${median(target).toFixed(1)} MB/s | direct R2 put ` +
          `${median(direct).toFixed(1)} MB/s | ratio ${(ratio * 100).toFixed(0)}% (target >= 80%) ` +
          `${ratio >= 0.8 ? "PASS" : "FAIL"} (median of ${target.length}) | peak RSS growth: POST server ` +
          `${(peak.post - base.post).toFixed(0)} MB, PUT server ${(peak.put - base.put).toFixed(0)} MB`,
      );
    }
    // Streaming means the POST target holds no more than the PUT path (which hands the body to R2
    // untouched, and whose own growth is the local R2's) as files grow.
    const growth = (r, side) => r.peak[side] - r.base[side];
    const [small, large] = results;
    const extra = (r) => growth(r, "post") - growth(r, "put");
    console.log(
      `\npeak RSS growth, POST target / direct PUT: 1 MB ${growth(small, "post").toFixed(0)} / ` +
        `${growth(small, "put").toFixed(0)} MB, 20 MB ${growth(large, "post").toFixed(0)} / ` +
        `${growth(large, "put").toFixed(0)} MB; ` +
        `the POST target's extra over the direct PUT: ${extra(small).toFixed(0)} MB at 1 MB, ` +
        `${extra(large).toFixed(0)} MB at 20 MB ` +
        `(${extra(large) <= Math.max(extra(small), 0) + 5 ? "flat" : "grows with the file"})`,
    );
  } finally {
    await server.stop();
    await putServer.stop();
  }
}
