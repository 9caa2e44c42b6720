/** What a promise expected to fail rejects with; a promise that fulfils fails the test instead. */
export async function rejectionOf<E = unknown>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected the call to fail');
}
