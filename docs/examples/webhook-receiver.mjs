// A Front Desk webhook receiver (docs/webhooks.md): checks each event's signature, answers at
// once, handles each event once, and notices a gap in the cursor. Run: WEBHOOK_SECRET=whsec_… node webhook-receiver.mjs
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET); // the whsec_… secret shown when the webhook was added
const handled = new Set(); // webhook-ids already handled: keep them in your database
let lastCursor = null;

createServer((req, res) => {
  let body = ''; // the raw body, exactly as sent: the signature covers these bytes
  req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    let event;
    try {
      event = webhook.verify(body, req.headers); // throws on a bad signature or a stale timestamp
    } catch {
      return res.writeHead(401).end();
    }
    res.writeHead(204).end(); // answer first (within 10 s), work after
    const id = req.headers['webhook-id'];
    if (handled.has(id)) return; // a retry of an event already handled
    handled.add(id);
    if (lastCursor !== null && event.cursor > lastCursor + 1) console.log(`gap after ${lastCursor}: GET updates?since=${lastCursor}`);
    if (event.cursor !== undefined) lastCursor = event.cursor;
    console.log(JSON.stringify({ verified: id, kind: event.kind, cursor: event.cursor }));
  });
}).listen(Number(process.env.PORT ?? 3000), () => console.log(`listening on ${process.env.PORT ?? 3000}`));
