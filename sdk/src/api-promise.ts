/** A call's data with the HTTP response it came in: its status, its headers and the service's request id. */
export interface WithResponse<T> {
  data: T;
  response: Response;
  /** `X-Request-Id`: quote it to support. */
  requestId: string | null;
}

/**
 * What every single-request call returns: awaited, it is the data, as any promise; its
 * `withResponse()` also gives the response it came in (openai-node's pattern), so reading a
 * header never needs a second API.
 *
 *     const { data: balance, response, requestId } = await client.credits.get().withResponse();
 */
export class ApiPromise<T> implements PromiseLike<T> {
  constructor(private readonly answer: Promise<WithResponse<T>>) {}

  /** The data, the response and its request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.answer;
  }

  // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, so `await` gives the data.
  then<Fulfilled = T, Rejected = never>(
    onFulfilled?: ((data: T) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.answer.then(({ data }) => data).then(onFulfilled, onRejected);
  }

  catch<Rejected = never>(onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null): Promise<T | Rejected> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  get [Symbol.toStringTag](): string {
    return "ApiPromise";
  }
}

/** Maps an answer's data, keeping its response: how a call shapes what the service sent. */
export function mapData<T, U>(answer: Promise<WithResponse<T>>, map: (data: T, response: Response) => U): Promise<WithResponse<U>> {
  return answer.then((raw) => ({ ...raw, data: map(raw.data, raw.response) }));
}
