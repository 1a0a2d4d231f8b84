import { generate } from 'selfsigned';

/**
 * A certificate for https://localhost that is its own authority: an assistant's site in
 * tests serves with it, and the authorization server is told to trust it (never the system).
 */
export async function localhostCertificate(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
