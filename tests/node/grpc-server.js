// SPDX-License-Identifier: Apache-2.0
// An independent gRPC server (@grpc/grpc-js) for cuzk's API client.
//   node grpc-server.js SOCKET RESPONSES_FILE CALLS
// RESPONSES_FILE is a JSON object: method name -> response object, or
// {"error": {"code": N, "details": "..."}} to fail that method.
// Prints {"ready": true} once listening, then {"method", "request"} for each
// call it serves, and exits after CALLS calls (or fails after 30 s).
'use strict';

const fs = require('fs');
const { grpc, loadService, CHANNEL_OPTIONS } = require('./grpc-common.js');

function main() {
  const [socket, responsesFile, callsText] = process.argv.slice(2);
  const responses = JSON.parse(fs.readFileSync(responsesFile, 'utf8'));
  const expectedCalls = Number(callsText);
  const Service = loadService();
  const server = new grpc.Server(CHANNEL_OPTIONS);
  const watchdog = setTimeout(() => {
    console.error('grpc-server: timed out waiting for calls');
    process.exit(3);
  }, 30000);
  let served = 0;

  const handlers = {};
  for (const method of Object.keys(Service.service)) {
    handlers[method] = (call, callback) => {
      console.log(JSON.stringify({ method, request: call.request }));
      const answer = responses[method];
      if (!answer) callback({ code: grpc.status.UNIMPLEMENTED, details: `no answer for ${method}` });
      else if (answer.error) callback(answer.error);
      else callback(null, answer);
      if (++served === expectedCalls) {
        // A graceful shutdown waits for the client to hang up; do not wait forever.
        clearTimeout(watchdog);
        server.tryShutdown(() => process.exit(0));
        setTimeout(() => process.exit(0), 5000);
      }
    };
  }
  server.addService(Service.service, handlers);
  server.bindAsync('unix:' + socket, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) {
      console.error(`grpc-server: cannot listen on ${socket}: ${err.message}`);
      process.exit(1);
    }
    console.log(JSON.stringify({ ready: true }));
  });
}

main();
