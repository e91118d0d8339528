// SPDX-License-Identifier: Apache-2.0
// PoRep C2 jobs as Curio sends them, through an independent gRPC client (@grpc/grpc-js
// loading api/cuzk.proto) against a real cuzkd:
//   node porep-grpcjs.js SOCKET ENVELOPE TAMPERED_C1 OUT_PROOF
// Submits the sealed 2 KiB sector's C1 envelope (StackedDrg2KiBV1_1, miner f01000, sector 1)
// and awaits its 192-byte proof (written to OUT_PROOF for `cuzk porep verify` and snarkjs);
// a C1 output with one label changed, a non-interactive registered proof and an unknown one
// FAIL with their reasons; PreloadSRS, GetStatus and EvictSRS name the size's circuit
// "porep-2k", as the reference names "porep-32g". One PASS/FAIL line per check.
'use strict';

const fs = require('fs');
const path = require('path');
const { grpc, loadService, CHANNEL_OPTIONS } = require(
  path.join(__dirname, '..', 'node', 'grpc-common.js'));

const [socket, envelopePath, tamperedPath, outProof] = process.argv.slice(2);
let failures = 0;

function check(what, ok, detail) {
  console.log(`${ok ? 'PASS' : 'FAIL'}: ${what}${ok || detail === undefined ? '' : ` (${detail})`}`);
  if (!ok) failures++;
}

function call(client, method, request, timeoutMs = 600000) {
  return new Promise((resolve) => {
    client[method](request, { deadline: Date.now() + timeoutMs }, (err, response) => {
      resolve(err ? { code: err.code, details: err.details } : { response });
    });
  });
}

// What Curio's cuzk client fills in for a sector's commit (API-WIRE.md).
function porepRequest(vanillaProof, extra) {
  return {
    proof_kind: 'POREP_SEAL_COMMIT', registered_proof: '5', sector_size: '2048',
    sector_number: '1', miner_id: '1000', vanilla_proof: vanillaProof, ...extra,
  };
}

async function expectFailed(client, what, request, reason) {
  let r = await call(client, 'SubmitProof', request);
  check(`${what}: accepted as a job`, r.response && r.response.job_id.length > 0, JSON.stringify(r));
  if (!r.response) return;
  r = await call(client, 'AwaitProof', { job_id: r.response.job_id });
  const ok = r.response && r.response.status === 'FAILED' &&
             r.response.error_message.includes(reason) && r.response.proof.length === 0;
  check(`${what}: FAILED naming "${reason}"`, ok, JSON.stringify(r));
}

async function main() {
  const Service = loadService();
  const client = new Service('unix:' + socket, grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
  const envelope = fs.readFileSync(envelopePath);

  // The reference's circuit id of the size: its PCE and key reserved and loaded before the job.
  let r = await call(client, 'PreloadSRS', { circuit_id: 'porep-2k' });
  check('PreloadSRS porep-2k', r.response && r.response.already_loaded === false, JSON.stringify(r));
  r = await call(client, 'GetStatus', {});
  check('GetStatus lists porep-2k',
        r.response && r.response.loaded_srs.some((s) => s.circuit_id === 'porep-2k'),
        JSON.stringify(r.response && r.response.loaded_srs));
  r = await call(client, 'PreloadSRS', { circuit_id: 'porep-3k' });
  check('PreloadSRS of an unknown PoRep size: INVALID_ARGUMENT',
        r.code === grpc.status.INVALID_ARGUMENT && r.details.includes('porep-32g'), JSON.stringify(r));

  r = await call(client, 'SubmitProof', porepRequest(envelope, { request_id: 'porep-1' }));
  check('SubmitProof of a C1 envelope', r.response && r.response.job_id.length > 0, JSON.stringify(r));
  const job = r.response && r.response.job_id;

  r = await call(client, 'GetStatus', {});
  const queue = r.response && r.response.queues.find((q) => q.proof_kind === 'POREP_SEAL_COMMIT');
  check('GetStatus lists the job in the POREP_SEAL_COMMIT queue',
        queue && queue.pending + queue.in_progress === 1, JSON.stringify(r.response && r.response.queues));

  await expectFailed(client, 'a C1 output with one label parent changed',
                     porepRequest(fs.readFileSync(tamperedPath)), 'fail the native check');
  await expectFailed(client, 'a non-interactive registered proof',
                     porepRequest(envelope, { registered_proof: '15' }), 'not supported yet');
  await expectFailed(client, 'the C1 of another sector number',
                     porepRequest(envelope, { sector_number: '2' }), 'SectorNum 1');

  r = await call(client, 'AwaitProof', { job_id: job });
  const proof = r.response ? Buffer.from(r.response.proof, 'base64') : Buffer.alloc(0);
  check('AwaitProof: COMPLETED', r.response && r.response.status === 'COMPLETED', JSON.stringify(r));
  check('the proof is one partition of 192 bytes', proof.length === 192, proof.length);
  check('AwaitProof reports the synthesis and proving times',
        r.response && BigInt(r.response.synthesis_ms) > 0n && BigInt(r.response.gpu_compute_ms) > 0n,
        JSON.stringify(r.response));
  fs.writeFileSync(outProof, proof);
  r = await call(client, 'EvictSRS', { circuit_id: 'porep-2k' });
  check('EvictSRS porep-2k', r.response && r.response.was_loaded === true &&
        BigInt(r.response.freed_bytes) > 0n, JSON.stringify(r));
  client.close();
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.log(`FAIL: ${e.stack}`);
  process.exit(1);
});
