/** rippled `ping`: an empty answer that proves the connection is alive. */
import type { MethodHandler } from './context';

export const ping: MethodHandler = () => ({});
