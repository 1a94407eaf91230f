// ort_bench.js: the onnxruntime contender of bench/harness.c, timed by ORT's own profiler.
//
// node ort_bench.js serve            line protocol on stdin/stdout, driven by osc-bench-harness:
//   hello          -> ok onnxruntime-node VERSION | error REASON
//   case DIR       -> ok | error REASON      load DIR (model.onnx, test_data_set_0) into sessions
//                                            with 1 and 2 intra-op threads, profiling on
//   run T K        -> ok MS | error REASON   K runs in a row of the T-thread session, then a
//                                            garbage collection (node --expose-gc); MS: the
//                                            JavaScript wall time per run, in ms
//   check T [RTOL ATOL] -> ok bit-identical | ok within ... | ok MISMATCH: ...   last output vs
//                  output_0.pb: bytewise, or, given RTOL and ATOL, float32 elements within
//                  |got - want| <= ATOL + RTOL |want| pass (the GNN layers: torch sums in another order)
//   finish W1 W2   -> ok, then "times T N ms..." per session (ORT's "model_run" durations in ms,
//                     the first W1 runs of session 1, W2 of session 2 dropped), then "end"
//   quit
// node ort_bench.js rss DIR T        -> "rss BASE_KB PEAK_KB": the peak RSS of loading a session and
//                                       running it 3 times, over the inputs already in memory
// node ort_bench.js DIR...           standalone: 3 warm-up + 20 runs per case (ORT_BENCH_RUNS
//                                    in the environment: that many), medians printed
//
// The time is ORT's own "model_run" profiler event (the session's Run, inside the library), not
// the JavaScript wall time, which adds the N-API call and the event-loop turn of session.run().
// Outputs go into tensors allocated once (pre-allocated fetches), so no run copies its output into
// a new JavaScript buffer. Spinning of ORT's thread pool is turned off so that a 2-thread session
// does not keep a core busy while the next contender runs.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');

let ort = null;
let ortError = '';
try {
  ort = require('onnxruntime-node');
  ort.env.logLevel = 'error';
} catch (e) {
  ortError = `cannot load onnxruntime-node: ${String(e.message || e).split('\n')[0]}`;
}

// ---- TensorProto (.pb) files: the fields osc_tensor_encode_pb writes (dims, data_type, name, raw_data)

const TYPES = {
  1: ['float32', Float32Array], 2: ['uint8', Uint8Array], 3: ['int8', Int8Array],
  4: ['uint16', Uint16Array], 5: ['int16', Int16Array], 6: ['int32', Int32Array],
  7: ['int64', BigInt64Array], 9: ['bool', Uint8Array], 10: ['float16', Uint16Array],
  11: ['float64', Float64Array], 12: ['uint32', Uint32Array], 13: ['uint64', BigUint64Array],
};

// headerOnly: stop at raw_data (dims and data_type come first in the files osc and torch write).
function parseTensor(buf, file, headerOnly) {
  const varint = (b, p) => {
    let v = 0n, shift = 0n;
    for (;;) {
      if (p.i >= b.length) throw new Error(`${file}: truncated varint`);
      const x = b[p.i++];
      v |= BigInt(x & 0x7f) << shift;
      if (!(x & 0x80)) return v;
      shift += 7n;
    }
  };
  const p = { i: 0 };
  const t = { dims: [], dtype: 0, raw: Buffer.alloc(0), name: '' };
  while (p.i < buf.length) {
    const key = Number(varint(buf, p)), field = key >>> 3, wire = key & 7;
    if (wire === 0) {
      const v = varint(buf, p);
      if (field === 1) t.dims.push(Number(BigInt.asIntN(64, v)));
      else if (field === 2) t.dtype = Number(v);
    } else if (wire === 2) {
      const len = Number(varint(buf, p));
      if (headerOnly && field === 9) break;
      const s = buf.subarray(p.i, p.i + len);
      p.i += len;
      if (field === 1) {
        const q = { i: 0 };
        while (q.i < s.length) t.dims.push(Number(BigInt.asIntN(64, varint(s, q))));
      } else if (field === 8) t.name = s.toString();
      else if (field === 9) t.raw = s;
      else if ([4, 5, 6, 7, 10, 11].includes(field) && len > 0)
        throw new Error(`${file}: typed data fields are not supported, only raw_data`);
    } else if (wire === 1) p.i += 8;
    else if (wire === 5) p.i += 4;
    else throw new Error(`${file}: unsupported wire type ${wire}`);
  }
  const ty = TYPES[t.dtype];
  if (!ty) throw new Error(`${file}: unsupported data_type ${t.dtype}`);
  if (headerOnly) return { type: ty[0], array: ty[1], dims: t.dims };
  // copy into a fresh (aligned) buffer: the typed array views need element alignment
  const bytes = new Uint8Array(t.raw.length);
  bytes.set(t.raw);
  t.type = ty[0];
  t.array = ty[1];
  t.data = new ty[1](bytes.buffer);
  t.bytes = bytes;
  return t;
}

function readTensor(file) { return parseTensor(fs.readFileSync(file), file); }

// The type and shape of a tensor file, from its first 64 KiB: without reading a large output
// into memory before the peak-RSS measurement starts.
function readSpec(file) {
  const fd = fs.openSync(file, 'r'), buf = Buffer.alloc(65536);
  try {
    return parseTensor(buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)), file, true);
  } finally {
    fs.closeSync(fd);
  }
}

const outputFile = (dir) => path.join(dir, 'test_data_set_0', 'output_0.pb');

function loadInputs(dir) {
  const set = path.join(dir, 'test_data_set_0');
  const inputs = [];
  for (let k = 0; fs.existsSync(path.join(set, `input_${k}.pb`)); k++)
    inputs.push(readTensor(path.join(set, `input_${k}.pb`)));
  return inputs;
}

function rssKb(field) {
  const m = fs.readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'));
  return m ? Number(m[1]) : -1;
}

const oneLine = (e) => String((e && e.message) || e).replace(/\s+/g, ' ').trim();

// ---- sessions

function sessionOptions(threads, profilePrefix) {
  const o = {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3, // errors only: ORT warns on every TensorScatter run ("in-place optimization not activated")
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
  if (profilePrefix) Object.assign(o, { enableProfiling: true, profileFilePrefix: profilePrefix });
  return o;
}

// A session with its feeds bound and its output pre-allocated, shaped as spec (output_0.pb).
async function openSession(dir, inputs, spec, threads, profilePrefix) {
  const s = await ort.InferenceSession.create(path.join(dir, 'model.onnx'),
                                              sessionOptions(threads, profilePrefix));
  if (s.inputNames.length !== inputs.length)
    throw new Error(`the model has ${s.inputNames.length} inputs, the case ${inputs.length}`);
  const feeds = {};
  s.inputNames.forEach((n, k) => { feeds[n] = new ort.Tensor(inputs[k].type, inputs[k].data, inputs[k].dims); });
  const count = spec.dims.reduce((a, b) => a * b, 1);
  const out = new ort.Tensor(spec.type, new spec.array(count), spec.dims);
  const fetches = { [s.outputNames[0]]: out };
  return { s, feeds, fetches, out, runs: 0, prefix: profilePrefix };
}

async function runOnce(x) {
  const r = await x.s.run(x.feeds, x.fetches);
  x.last = r[x.s.outputNames[0]];
  x.runs++;
}

function compare(x, expected, tol) {
  const got = x.last;
  if (!got) return 'MISMATCH: no output';
  const g = new Uint8Array(got.data.buffer, got.data.byteOffset, got.data.byteLength);
  const w = expected.bytes;
  if (g.length !== w.length) return `MISMATCH: ${g.length} bytes, output_0.pb has ${w.length}`;
  let diff = 0, first = -1;
  for (let i = 0; i < g.length; i++) if (g[i] !== w[i]) { diff++; if (first < 0) first = i; }
  if (!diff) return 'bit-identical';
  let elems = 0, beyond = 0, maxAbs = 0;
  if (got.type === 'float32') {
    const ev = expected.data;
    for (let i = 0; i < ev.length; i++)
      if (got.data[i] !== ev[i] && !(Number.isNaN(got.data[i]) && Number.isNaN(ev[i]))) {
        const d = Math.abs(got.data[i] - ev[i]);
        elems++;
        maxAbs = Math.max(maxAbs, d);
        if (tol && !(d <= tol.atol + tol.rtol * Math.abs(ev[i]))) beyond++;
      }
    if (tol && !beyond)
      return `within rtol ${tol.rtol} atol ${tol.atol}: max abs diff ${maxAbs.toPrecision(3)}`;
    if (tol)
      return `MISMATCH: ${beyond} of ${ev.length} elements beyond rtol ${tol.rtol} atol ${tol.atol}, max abs diff ${maxAbs.toPrecision(3)}`;
    return `MISMATCH: ${elems} of ${ev.length} elements differ from output_0.pb, max abs diff ${maxAbs.toPrecision(3)}`;
  }
  return `MISMATCH: ${diff} bytes differ from output_0.pb, first at byte ${first}`;
}

// model_run durations (ms) of the session's profile file, in run order, first `skip` dropped.
function profileTimes(x, skip) {
  x.s.endProfiling(); // writes PREFIX_DATE.json
  const dir = path.dirname(x.prefix), base = path.basename(x.prefix);
  const files = fs.readdirSync(dir).filter((f) => f.startsWith(base + '_') && f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`expected one profile file ${x.prefix}_*.json, found ${files.length}`);
  const events = JSON.parse(fs.readFileSync(path.join(dir, files[0]), 'utf8'));
  fs.unlinkSync(path.join(dir, files[0]));
  const runs = events.filter((e) => e.name === 'model_run').sort((a, b) => a.ts - b.ts);
  if (runs.length !== x.runs)
    throw new Error(`the profile has ${runs.length} model_run events for ${x.runs} runs`);
  return runs.slice(skip).map((e) => e.dur / 1000);
}

// ---- modes

async function serve() {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  const out = (s) => process.stdout.write(s + '\n');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'osc-ort-'));
  let sess = {}, expected = null, caseNo = 0;
  const release = async () => {
    for (const x of Object.values(sess)) await x.s.release().catch(() => {});
    sess = {};
  };
  for await (const line of rl) {
    const [cmd, ...args] = line.trim().split(' ');
    const arg = args.join(' ');
    try {
      if (cmd === 'hello') {
        out(ort ? `ok onnxruntime-node ${ort.env.versions.node}` : `error ${ortError}`);
      } else if (cmd === 'case') {
        if (!ort) throw new Error(ortError);
        await release();
        expected = null;
        const inputs = loadInputs(arg);
        expected = readTensor(outputFile(arg));
        caseNo++;
        for (const t of [1, 2])
          sess[t] = await openSession(arg, inputs, expected, t, path.join(tmp, `c${caseNo}_t${t}`));
        out('ok');
      } else if (cmd === 'run') {
        const x = sess[args[0]], k = Number(args[1] || 1);
        if (!x) throw new Error(`no session ${args[0]}`);
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < k; i++) await runOnce(x);
        const perRun = Number(process.hrtime.bigint() - t0) / 1e6 / k;
        if (global.gc) global.gc(); // free the burst's output copies now, not during the next contender
        out(`ok ${perRun}`); // JavaScript wall ms per run: the harness sizes bursts with it
      } else if (cmd === 'check') {
        const x = sess[args[0]];
        if (!x) throw new Error(`no session ${args[0]}`);
        const tol = args.length >= 3 ? { rtol: Number(args[1]), atol: Number(args[2]) } : null;
        out(`ok ${compare(x, expected, tol)}`);
      } else if (cmd === 'finish') {
        const lines = [];
        for (const t of Object.keys(sess)) {
          const ms = profileTimes(sess[t], Number(args[t - 1]) || 0);
          lines.push(`times ${t} ${ms.length} ${ms.join(' ')}`);
        }
        await release();
        out('ok');
        for (const l of lines) out(l);
        out('end');
      } else if (cmd === 'quit') {
        break;
      } else if (cmd) {
        throw new Error(`unknown command '${cmd}'`);
      }
    } catch (e) {
      out(`error ${oneLine(e)}`);
    }
  }
  await release();
  fs.rmSync(tmp, { recursive: true, force: true });
}

async function rss(dir, threads) {
  if (!ort) throw new Error(ortError);
  const inputs = loadInputs(dir), spec = readSpec(outputFile(dir));
  fs.writeFileSync('/proc/self/clear_refs', '5');
  const base = rssKb('VmRSS');
  const x = await openSession(dir, inputs, spec, Number(threads), null);
  for (let i = 0; i < 3; i++) await runOnce(x);
  console.log(`rss ${base} ${rssKb('VmHWM')}`);
  await x.s.release();
}

async function standalone(dirs) {
  if (!ort) throw new Error(ortError);
  const runs = Number(process.env.ORT_BENCH_RUNS || 20);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'osc-ort-'));
  console.log(`onnxruntime-node ${ort.env.versions.node}`);
  for (const [i, dir] of dirs.entries()) {
    const inputs = loadInputs(dir);
    const expected = readTensor(outputFile(dir));
    for (const t of [1, 2]) {
      const x = await openSession(dir, inputs, expected, t, path.join(tmp, `c${i}_t${t}`));
      for (let r = 0; r < 3 + runs; r++) await runOnce(x);
      const ms = profileTimes(x, 3).sort((a, b) => a - b);
      const med = (ms[(ms.length - 1) >> 1] + ms[ms.length >> 1]) / 2;
      console.log(`${path.basename(dir)} ${t}t: median model_run ${med.toFixed(4)} ms; ${compare(x, expected)}`);
      await x.s.release();
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

const argv = process.argv.slice(2);
const main = argv[0] === 'serve' ? serve()
  : argv[0] === 'rss' ? rss(argv[1], argv[2])
  : argv.length ? standalone(argv)
  : Promise.reject(new Error('usage: node ort_bench.js serve | rss DIR THREADS | DIR...'));
main.catch((e) => {
  console.error(`ort_bench: ${oneLine(e)}`);
  process.exitCode = 1;
});
