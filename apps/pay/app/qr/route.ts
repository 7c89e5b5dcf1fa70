// QR codes as SVG, drawn on the server so the browser loads no QR library: /qr?text=<what to encode>.
// The text is a payment address or an EIP-681 link (lib/wallet-uri.ts); the answer never changes
// for a given text, so browsers may keep it.
import QRCode from 'qrcode';

const MAX_TEXT = 512;

export async function GET(req: Request) {
  const text = new URL(req.url).searchParams.get('text');
  if (!text || text.length > MAX_TEXT) return new Response('text is required, up to 512 characters', { status: 400 });
  const svg = await QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return new Response(svg, {
    headers: {
      'content-type': 'image/svg+xml; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
