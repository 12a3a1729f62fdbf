// A Node.js client of translator.v1 (@grpc/grpc-js, the .proto loaded at run time): what another language's
// client sees of the service. Usage: node client.js HOST:PORT PROTO_DIR TEXT... ; prints one JSON object.
const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');

const [target, protoDir, ...texts] = process.argv.slice(2);
const definition = loader.loadSync('translator/v1/translator.proto',
  {keepCase: true, longs: String, enums: String, defaults: true, includeDirs: [protoDir]});
const client = new (grpc.loadPackageDefinition(definition).translator.v1.Translator)(target, grpc.credentials.createInsecure());

const unary = (method, request) => new Promise((resolve) => client[method](request, (error, response) =>
  resolve(error ? {code: error.code, details: error.details} : {code: 0, response})));

const collect = (call, keep) => new Promise((resolve) => {
  const items = [];
  call.on('data', (item) => items.push(keep(item)));
  call.on('error', (error) => resolve({code: error.code, details: error.details, items}));
  call.on('end', () => resolve({code: 0, items}));
});

(async () => {
  const translate = await unary('Translate', {texts, request_id: 'node-1'});
  const stream = await collect(client.TranslateStream({texts}),
    (chunk) => ({index: chunk.index, text: chunk.text, final: chunk.final ? chunk.final.text : null}));
  const batchCall = client.TranslateBatch();
  const batch = collect(batchCall, (result) => ({id: result.id, text: result.translation ? result.translation.text : null,
    error_code: result.error_code}));
  texts.forEach((text, i) => batchCall.write({id: `item-${i}`, text}));
  batchCall.write({id: 'empty', text: ''});
  batchCall.end();
  const errors = {
    empty: await unary('Translate', {texts: ['']}),
    unknown_model: await unary('Translate', {texts: ['x'], model: 'no-such-model'}),
    beam_too_large: await unary('Translate', {texts: ['x'], options: {beam_size: 1000}}),
    glossary_twice: await unary('Translate', {texts: ['x'], options: {glossary: [{source: 'a'}, {source: 'A'}]}}),
  };
  const glossary = await unary('Translate', {texts, options: {glossary: [{source: 'station', target: 'Bahnhof'}]}});
  console.log(JSON.stringify({translate, stream, batch: await batch, errors, glossary,
    models: await unary('ListModels', {})}));
  process.exit(0);
})();
