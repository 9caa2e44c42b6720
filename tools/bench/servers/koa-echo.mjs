// The `koa_echo_rps` baseline: a bare Koa + @koa/bodyparser JSON-RPC endpoint that answers every call
// with its own params, in the node's success envelope. No gRPC, no validation, no telemetry: what
// the facade's HTTP stack costs on this machine before any work is done. Listens on the port it is given (any free one without), and prints it.
import { createServer } from 'node:http';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';

const app = new Koa();
app.use(bodyParser({ enableTypes: ['json'], jsonStrict: false }));
app.use((ctx) => {
  const call = ctx.request.body ?? {};
  ctx.body = { id: call.id ?? null, jsonrpc: '2.0', result: call.params ?? [], status: 'success' };
});
const server = createServer(app.callback());
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => process.stdout.write(`koa echo listening on ${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
