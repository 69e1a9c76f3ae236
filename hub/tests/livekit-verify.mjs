// Verifies LiveKit tokens with the official server SDK's TokenVerifier and prints their
// payloads as JSON lines. Usage: node livekit-verify.mjs API_KEY API_SECRET TOKEN...
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { TokenVerifier } = require('livekit-server-sdk');

const [apiKey, apiSecret, ...tokens] = process.argv.slice(2);
const verifier = new TokenVerifier(apiKey, apiSecret);
for (const token of tokens) {
  try {
    console.log(JSON.stringify(await verifier.verify(token)));
  } catch (error) {
    console.log(JSON.stringify({ error: String(error) }));
  }
}
