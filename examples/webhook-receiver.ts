// A webhook receiver that verifies X-Service-Signature before trusting a delivery.
// Run: WEBHOOK_SECRET=whsec_... npm exec -- node examples/webhook-receiver.ts
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const secret = process.env.WEBHOOK_SECRET ?? "";
const port = Number(process.env.PORT ?? 4000);

function verified(rawBody: string, header: string | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`);
  const received = Buffer.from(header ?? "");
  return received.length === expected.length && timingSafeEqual(received, expected);
}

createServer((req, res) => {
  let rawBody = "";
  req.on("data", (chunk: Buffer) => (rawBody += chunk.toString("utf8")));
  req.on("end", () => {
    if (!verified(rawBody, req.headers["x-service-signature"] as string | undefined)) {
      res.writeHead(401).end();
      console.log("rejected a delivery with a bad signature");
      return;
    }
    const result = JSON.parse(rawBody) as { id: string; status: string; brief: string | null };
    console.log(`verified ${req.headers["x-service-event"]} ${req.headers["x-service-delivery"]}: job ${result.id} ${result.status}`);
    res.writeHead(204).end(); // any 2xx within 10 s counts as delivered
  });
}).listen(port, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${port}`));
