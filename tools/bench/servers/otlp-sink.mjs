// A local OTLP/HTTP collector stand-in for `otel_overhead`: accepts every export, counts its bytes,
// discards it and answers 200 with an empty ExportTraceServiceResponse. Prints its port; on SIGTERM
// prints how many exports and bytes it received.
import { createServer } from 'node:http';

let exports = 0;
let bytes = 0;
const server = createServer((request, response) => {
  request.on('data', (chunk) => (bytes += chunk.length));
  request.on('end', () => {
    exports++;
    response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/x-protobuf' });
    response.end(request.headers['content-type']?.includes('json') ? '{}' : '');
  });
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => process.stdout.write(`otlp sink listening on ${server.address().port}\n`));
process.on('SIGTERM', () => {
  process.stdout.write(`otlp sink received ${exports} exports, ${bytes} bytes\n`);
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
