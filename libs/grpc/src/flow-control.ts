/**
 * The HTTP/2 receive window of every gRPC client: 16 MiB instead of Node's 64 KiB. HTTP/2 lets a
 * sender put at most the receiver's window on the wire before the receiver's WINDOW_UPDATE comes
 * back, and a receiver sends one only when its event loop reads the data: a GetLedger answer of
 * megabytes (a full ledger to the facade or the state prover) would otherwise cross a busy
 * process one 64 KiB round trip at a time.
 *
 * Servers keep Node's window: grpc-js has no server option for it (grpc/grpc-node#3058), and
 * raising the connection window of the server's sessions by hand (http2 setLocalWindowSize) stalled
 * the ledger-store's connections for good under sync's load.
 */

/** Stream and connection receive window of a client. */
export const RECEIVE_WINDOW_BYTES = 16 * 1024 * 1024;

/** The grpc-js channel option that sets a client's receive windows. */
export const clientWindowOptions = { 'grpc-node.flow_control_window': RECEIVE_WINDOW_BYTES } as const;
