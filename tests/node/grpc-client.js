// SPDX-License-Identifier: Apache-2.0
// An independent gRPC client (@grpc/grpc-js) for cuzk's API server.
//   node grpc-client.js SOCKET CALLS_FILE
// CALLS_FILE has one JSON object per line:
//   {"method": "SubmitProof", "request": {...}}   a call of the service
//   {"path": "/cuzk.v1.ProvingEngine/Nope"}        a raw call with an empty message
//   {"parallel": [call, call, ...]}                 calls in flight together
// Prints one JSON line per call, in order: {"method", "response"} or
// {"method", "code", "details"} when the call failed.
'use strict';

const fs = require('fs');
const { grpc, loadService, CHANNEL_OPTIONS } = require('./grpc-common.js');

const DEADLINE_MS = 20000;

function call(client, c) {
  const name = c.method || c.path;
  return new Promise((resolve) => {
    const done = (err, response) => {
      if (err) resolve({ method: name, code: err.code, details: err.details });
      else resolve({ method: name, response });
    };
    const options = { deadline: Date.now() + DEADLINE_MS };
    if (c.path) {
      const identity = (x) => x;
      client.makeUnaryRequest(c.path, identity, identity, Buffer.alloc(0), options, done);
    } else {
      if (typeof client[c.method] !== 'function') throw new Error(`no method ${c.method}`);
      client[c.method](c.request, options, done);
    }
  });
}

async function main() {
  const [socket, callsFile] = process.argv.slice(2);
  const Service = loadService();
  const client = new Service('unix:' + socket, grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
  const lines = fs.readFileSync(callsFile, 'utf8').split('\n').filter((l) => l.length);

  for (const line of lines) {
    const c = JSON.parse(line);
    const results = c.parallel ? await Promise.all(c.parallel.map((p) => call(client, p)))
                               : [await call(client, c)];
    for (const r of results) console.log(JSON.stringify(r));
  }
  client.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
