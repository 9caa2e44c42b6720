/** Requests in rippled's and in JSON-RPC's forms over a test WebSocket client, and rippled's HTTP form. */
import type { WsClient } from '@ledger-node/test-utils';

export type Json = Record<string, any>;

/** rippled's WebSocket protocol on a client: `{id, command, …}` and the response of that id. */
export function rippledRequester(client: WsClient) {
  return (command: string, fields: Json = {}, timeoutMs = 30_000): Promise<Json> => client.request({ command, ...fields }, timeoutMs);
}

/** JSON-RPC 2.0 on a client (/v1/ws): the response of the call's id. */
export function jsonRpcRequester(client: WsClient) {
  let nextId = 1;
  return (method: string, params: unknown[] = [], timeoutMs = 30_000): Promise<Json> => {
    const id = nextId++;
    const from = client.count;
    client.send({ jsonrpc: '2.0', id, method, params });
    return client.waitFor((message) => message.id === id && message.jsonrpc === '2.0', timeoutMs, from);
  };
}

/** rippled's HTTP JSON-RPC: the HTTP status and the body (JSON when it parses, else the text). */
export async function postJson(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}
