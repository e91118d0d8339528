// SPDX-License-Identifier: Apache-2.0
// An independent client of a real cuzkd: @grpc/grpc-js loading api/cuzk.proto.
//   node cuzkd-grpcjs.js SOCKET ZKEY WTNS VK_JSON
// The daemon runs with one worker. Submits jobs (the witness inline), awaits them and
// checks the proofs with snarkjs, repeats a request id, cancels a queued job, awaits
// with a timeout, proves in one call, refuses a kind it does not implement, preloads and
// evicts an SRS, and reads status and metrics. One PASS/FAIL line per check.
'use strict';

const fs = require('fs');
const { grpc, loadService, CHANNEL_OPTIONS } = require('./grpc-common.js');

const [socket, zkey, wtns, vkPath] = process.argv.slice(2);
let failures = 0;

function check(what, ok, detail) {
  console.log(`${ok ? 'PASS' : 'FAIL'}: ${what}${ok || detail === undefined ? '' : ` (${detail})`}`);
  if (!ok) failures++;
}

function call(client, method, request) {
  return new Promise((resolve) => {
    client[method](request, { deadline: Date.now() + 60000 }, (err, response) => {
      resolve(err ? { code: err.code, details: err.details } : { response });
    });
  });
}

async function verify(result) {
  const snarkjs = require('snarkjs');
  const vk = JSON.parse(fs.readFileSync(vkPath, 'utf8'));
  return snarkjs.groth16.verify(vk, JSON.parse(result.public_json), JSON.parse(result.proof_json));
}

async function main() {
  const Service = loadService();
  const client = new Service('unix:' + socket, grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
  const witness = fs.readFileSync(wtns);
  const submitRequest = (extra) => ({
    proof_kind: 'GROTH16_SNARKJS', zkey_path: zkey, wtns: witness, ...extra,
  });

  let r = await call(client, 'GetStatus', {});
  check('GetStatus answers', r.response !== undefined, r.details);
  check('status carries the memory budget', r.response && BigInt(r.response.memory_budget_bytes) > 0n);
  check('status says how memory is enforced',
        r.response && r.response.memory_enforcement.length > 0, r.response && r.response.memory_enforcement);

  r = await call(client, 'SubmitProof', submitRequest({ request_id: 'grpcjs-1', priority: 'HIGH' }));
  check('SubmitProof with an inline witness', r.response && r.response.job_id.length > 0, r.details);
  const job = r.response.job_id;
  r = await call(client, 'SubmitProof', submitRequest({ request_id: 'grpcjs-1' }));
  check('the same request id gives the same job', r.response && r.response.job_id === job,
        JSON.stringify(r));

  r = await call(client, 'AwaitProof', { job_id: job });
  check('AwaitProof: COMPLETED', r.response && r.response.status === 'COMPLETED', JSON.stringify(r));
  check('the proof verifies with snarkjs', r.response && await verify(r.response));
  check('AwaitProof reports the total time', r.response && BigInt(r.response.total_ms) > 0n);

  // Three jobs for one worker: the last one waits, is awaited briefly, then cancelled.
  const queued = [];
  for (let i = 0; i < 3; i++) {
    r = await call(client, 'SubmitProof', submitRequest({}));
    queued.push(r.response.job_id);
  }
  const last = queued[2];
  r = await call(client, 'AwaitProof', { job_id: last, timeout_ms: 1 });
  check('AwaitProof with timeout_ms=1 on a queued job: TIMEOUT',
        r.response && r.response.status === 'TIMEOUT', JSON.stringify(r));
  r = await call(client, 'CancelProof', { job_id: last });
  check('CancelProof of a queued job', r.response && r.response.was_running === false, JSON.stringify(r));
  r = await call(client, 'AwaitProof', { job_id: last });
  check('the cancelled job: CANCELLED', r.response && r.response.status === 'CANCELLED', JSON.stringify(r));
  r = await call(client, 'CancelProof', { job_id: 'no-such-job' });
  check('CancelProof of an unknown job: NOT_FOUND', r.code === grpc.status.NOT_FOUND, JSON.stringify(r));
  for (const j of queued.slice(0, 2)) {
    r = await call(client, 'AwaitProof', { job_id: j });
    check(`job ${j} completed`, r.response && r.response.status === 'COMPLETED', JSON.stringify(r));
  }

  r = await call(client, 'Prove', { submit: submitRequest({}) });
  check('Prove: COMPLETED and verifies',
        r.response && r.response.result.status === 'COMPLETED' && await verify(r.response.result),
        JSON.stringify(r));

  r = await call(client, 'SubmitProof', { proof_kind: 'WINNING_POST' });
  check('a kind cuzkd does not prove: UNIMPLEMENTED', r.code === grpc.status.UNIMPLEMENTED,
        JSON.stringify(r));
  r = await call(client, 'SubmitProof', { proof_kind: 'GROTH16_SNARKJS', zkey_path: '/nonexistent.zkey', wtns: witness });
  check('a missing .zkey: INVALID_ARGUMENT naming it',
        r.code === grpc.status.INVALID_ARGUMENT && r.details.includes('/nonexistent.zkey'), JSON.stringify(r));

  r = await call(client, 'PreloadSRS', { circuit_id: zkey });
  check('PreloadSRS of the .zkey', r.response !== undefined, JSON.stringify(r));
  r = await call(client, 'GetStatus', {});
  check('status lists the preloaded SRS',
        r.response && r.response.loaded_srs.some((s) => s.circuit_id === zkey), JSON.stringify(r.response));
  r = await call(client, 'EvictSRS', { circuit_id: zkey });
  check('EvictSRS frees its bytes', r.response && r.response.was_loaded && BigInt(r.response.freed_bytes) > 0n,
        JSON.stringify(r));

  r = await call(client, 'GetStatus', {});
  check('status counts the completed proofs', r.response && BigInt(r.response.total_proofs_completed) >= 4n,
        JSON.stringify(r.response));
  // Whether it is paused depends on the host's memory pressure at the time; it is a field.
  check('status: admission_paused is reported', r.response && typeof r.response.admission_paused === 'boolean');
  r = await call(client, 'GetMetrics', {});
  const text = r.response ? r.response.prometheus_text : '';
  check('GetMetrics: jobs by state', /^cuzk_jobs\{state="completed"\} [1-9]/m.test(text));
  check('GetMetrics: jobs by state (cancelled)', /^cuzk_jobs\{state="cancelled"\} 1$/m.test(text));
  check('GetMetrics: the budget', /^cuzk_memory_budget_bytes [1-9]/m.test(text));
  check('GetMetrics: the job time histogram', /^cuzk_job_seconds_count [1-9]/m.test(text));
  client.close();
}

main().then(() => {
  console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}, (e) => {
  console.error(e);
  process.exit(1);
});
