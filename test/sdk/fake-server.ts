import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

/**
 * A stand-in for the service on 127.0.0.1: each request is recorded, then answered by the next
 * handler of `script` (the last one answers every request after it).
 */
export async function fakeService(script: ((req: Recorded, res: ServerResponse) => void)[]) {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, at: Date.now() };
      requests.push(recorded);
      script[Math.min(requests.length - 1, script.length - 1)]!(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    // Requests left unanswered on purpose (`silent`) are cut, or the server would wait on them.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Answers JSON, as the service does (an X-Request-Id on every response). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return (_req: Recorded, res: ServerResponse) => {
    res.writeHead(status, { "Content-Type": "application/json", "X-Request-Id": `req-${status}`, ...headers }).end(JSON.stringify(body));
  };
}

export const error = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json(status, { error: { code, message } }, headers);

/** Drops the connection without an answer (a network error for the client). */
export function hangUp(_req: Recorded, res: ServerResponse) {
  res.socket?.destroy();
}

/** Never answers: the request waits until the client gives up (its timeout) or the server closes. */
export function silent(_req: Recorded, _res: ServerResponse) {}
