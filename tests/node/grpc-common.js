// SPDX-License-Identifier: Apache-2.0
// What grpc-client.js and grpc-server.js share: cuzk.proto loaded by
// @grpc/proto-loader in the JSON form the C tests write and read
// (tests/lib/api-json.h): proto field names, 64-bit integers as decimal
// strings, enums by name, bytes as base64, every field present.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO = path.join(__dirname, '..', '..', 'api', 'cuzk.proto');
const LOADER_OPTIONS = {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  arrays: true,
};
// Our messages go up to hundreds of MiB; grpc-js stops at 4 MiB by default.
const CHANNEL_OPTIONS = {
  'grpc.max_receive_message_length': -1,
  'grpc.max_send_message_length': -1,
};

function loadService() {
  const definition = protoLoader.loadSync(PROTO, LOADER_OPTIONS);
  return grpc.loadPackageDefinition(definition).cuzk.v1.ProvingEngine;
}

module.exports = { grpc, loadService, CHANNEL_OPTIONS };
